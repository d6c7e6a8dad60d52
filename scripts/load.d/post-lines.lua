-- wrk script for scripts/load: POSTs one body per request from a file of JSON lines, each
-- thread taking every n-th line so no two threads send the same body. After the last line a
-- thread starts over (the relay then answers resubmissions, which are idempotent; a repeated
-- Redo push answers each node as a duplicate). Headers given to wrk with -H (a session
-- cookie, an Origin) are sent too.
-- Arguments after `--`: FILE THREADS
local threadCount = 0

function setup(thread)
  thread:set("offset", threadCount)
  threadCount = threadCount + 1
end

function init(args)
  bodies = {}
  local threads = tonumber(args[2]) or 1
  local index = 0
  for line in io.lines(args[1]) do
    if index % threads == offset then bodies[#bodies + 1] = line end
    index = index + 1
  end
  next = 0
  headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["Content-Type"] = "application/json"
end

function request()
  next = next + 1
  if next > #bodies then next = 1 end
  return wrk.format("POST", nil, headers, bodies[next])
end
