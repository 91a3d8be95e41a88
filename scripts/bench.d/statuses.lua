-- Prints the share of each status class and the socket errors (the overload run).
local counts = {}
local threads = {}
setup = function(thread)
  table.insert(threads, thread)
end
init = function()
  statuses = {}
end
response = function(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
done = function(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    local s = t:get("statuses")
    for code, n in pairs(s) do
      total[code] = (total[code] or 0) + n
    end
  end
  local parts = {}
  for code, n in pairs(total) do
    table.insert(parts, string.format("%d:%d", code, n))
  end
  table.sort(parts)
  local secs = summary.duration / 1e6
  io.write(string.format("BENCH requests=%d rps=%.0f statuses=%s connect_errors=%d read_errors=%d write_errors=%d timeouts=%d p99_ms=%.2f\n",
    summary.requests, summary.requests / secs, table.concat(parts, ","),
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout,
    latency:percentile(99) / 1000))
end
