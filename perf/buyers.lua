-- wrk script: POST one unit of one SKU as a fresh buyer on every request.
-- args: path, skuId, delay ms between a connection's requests (0: as fast as it goes), a tag unique to the run,
--       "keyed" to send a fresh requestId (idempotency key) with every attempt, as the buyer page does
local counter = 0
local pause = 0
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("index", threads)
end

function init(args)
  path = args[1]
  items = '"items":[{"skuId":"' .. args[2] .. '","quantity":1}]'
  keyed = args[5] == "keyed"
  pause = tonumber(args[3] or "0")
  prefix = args[4] .. "t" .. index
  if pause > 0 then
    function delay()
      return pause
    end
  end
end

function request()
  counter = counter + 1
  local body = keyed and ('{"requestId":"' .. prefix .. "k" .. counter .. '",' .. items .. '}') or ('{' .. items .. '}')
  return wrk.format("POST", path, { ["X-User-Id"] = prefix .. "-" .. counter,
                                    ["Content-Type"] = "application/json" }, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT requests=%d duration_us=%d non2xx=%d socket_errors=%d p50_us=%d p99_us=%d\n",
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
