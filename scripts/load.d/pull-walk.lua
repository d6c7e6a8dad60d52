-- wrk script for scripts/load: sync pulls that walk the cursor (issue 29), as a device catching
-- up does. Each wrk thread is one session (the Nth cookie of the file for the Nth thread). A
-- request asks for the page after a cursor some earlier answer gave (`after=`), or, when none
-- is waiting, for the first page; each answer that has more puts its cursor back. So many
-- walks of the account's whole log are under way at once, each page read once per walk.
-- Printed at the end: `load-script: P pages, W walks finished`.
-- Arguments after `--`: COOKIES_FILE
local threads = {}

function setup(thread)
  thread:set("index", #threads)
  table.insert(threads, thread)
end

function init(args)
  local cookies = {}
  for line in io.lines(args[1]) do cookies[#cookies + 1] = line end
  cookie = cookies[index % #cookies + 1]
  waiting = {}
  pages = 0
  walks = 0
  base = wrk.path
  headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["Cookie"] = cookie
end

function request()
  local path = base
  local cursor = table.remove(waiting)
  if cursor then
    path = base .. "&after=" .. cursor:gsub("[^%w%-_%.~]", function(c) return string.format("%%%02X", c:byte()) end)
  end
  return wrk.format("GET", path, headers, nil)
end

function response(status, headers, body)
  if status ~= 200 then return end
  pages = pages + 1
  local cursor = body:match('"cursor":"([^"]*)"')
  if body:find('"hasMore":true', 1, true) and cursor then
    table.insert(waiting, cursor)
  else
    walks = walks + 1
  end
end

function done(summary, latency, requests)
  local pageTotal, walkTotal = 0, 0
  for _, thread in ipairs(threads) do
    pageTotal = pageTotal + (thread:get("pages") or 0)
    walkTotal = walkTotal + (thread:get("walks") or 0)
  end
  io.write(string.format("load-script: %d pages, %d walks finished\n", pageTotal, walkTotal))
end
