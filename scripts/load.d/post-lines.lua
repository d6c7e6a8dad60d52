-- wrk script for scripts/load: POSTs one body per request from a file of lines, each thread
-- taking every n-th line so no two threads send the same body. A line is a JSON body, or
-- `COOKIE<TAB>BODY` to send it in that session (several accounts push at once). Headers given
-- to wrk with -H (a session cookie, an Origin) are sent too.
--
-- Every request is meant to carry a new body (issue 29): scripts/load writes a fresh set for
-- each wrk run, sized from the rate. Should a thread run out anyway it starts over, and the
-- repeated requests are counted and printed at the end as `load-script: N repeated bodies`,
-- which scripts/load reports as a failure. With `cycle` as the third argument, repeats are
-- expected (the same sign-ins again), not counted, and every thread takes every line.
-- Arguments after `--`: FILE THREADS [cycle]
local threads = {}

function setup(thread)
  thread:set("offset", #threads)
  table.insert(threads, thread)
end

function init(args)
  bodies = {}
  cookies = {}
  local count = tonumber(args[2]) or 1
  cycle = args[3] == "cycle"
  local index = 0
  for line in io.lines(args[1]) do
    -- Repeats are expected with `cycle`, so every thread takes every line.
    if cycle or index % count == offset then
      local cookie, body = line:match("^([^\t]*)\t(.*)$")
      bodies[#bodies + 1] = body or line
      cookies[#bodies] = cookie
    end
    index = index + 1
  end
  if #bodies == 0 then error("post-lines.lua: thread " .. offset .. " has no bodies in " .. args[1]) end
  nextIndex = 0
  repeated = 0
  wrapped = false
  headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["Content-Type"] = "application/json"
  defaultCookie = headers["Cookie"]
end

function request()
  nextIndex = nextIndex + 1
  if nextIndex > #bodies then
    nextIndex = 1
    wrapped = true
  end
  if wrapped and not cycle then repeated = repeated + 1 end
  headers["Cookie"] = cookies[nextIndex] or defaultCookie
  return wrk.format("POST", nil, headers, bodies[nextIndex])
end

function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + (thread:get("repeated") or 0) end
  io.write(string.format("load-script: %d repeated bodies\n", total))
end
