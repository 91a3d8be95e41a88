-- wrk script: POST the JSON body in the file named by BENCH_BODY (a GraphQL request).
local f = assert(io.open(os.getenv("BENCH_BODY"), "r"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
