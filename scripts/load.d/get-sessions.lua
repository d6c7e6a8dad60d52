-- wrk script for scripts/load: GETs the URL in several sessions, the Cookie header taken in
-- turn from a file of `name=value` lines (one per account), so the server's session lookups
-- and caches see more than one session.
-- Arguments after `--`: COOKIES_FILE
function init(args)
  cookies = {}
  for line in io.lines(args[1]) do cookies[#cookies + 1] = line end
  turn = 0
  headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
end

function request()
  turn = turn % #cookies + 1
  headers["Cookie"] = cookies[turn]
  return wrk.format("GET", nil, headers, nil)
end
