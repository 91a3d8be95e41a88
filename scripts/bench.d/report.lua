-- Prints one machine-readable line after wrk's own report.
done = function(summary, latency, requests)
  local secs = summary.duration / 1e6
  io.write(string.format("BENCH requests=%d rps=%.0f p50_ms=%.2f p99_ms=%.2f errors=%d\n",
    summary.requests, summary.requests / secs, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write
      + summary.errors.status + summary.errors.timeout))
end
