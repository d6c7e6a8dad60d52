-- wrk script for scripts/load: the same JSON body on every request (sign-in).
-- Arguments after `--`: BODY
function init(args)
  wrk.method = "POST"
  wrk.body = args[1]
  wrk.headers["Content-Type"] = "application/json"
end
