-- wrk script: POST a trivial GraphQL query.
wrk.method = "POST"
wrk.body = '{"query":"{ version }"}'
wrk.headers["Content-Type"] = "application/json"
