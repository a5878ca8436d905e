-- wrk script of perf/cluster.sh: POST one unit of one SKU for a new buyer on every request (trusted-header buyers,
-- X-User-Id), and count the answers: 202 accepted, anything else not.
-- args: path, skuId, a tag unique to the instance's crowd (the buyers' names start with it).
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end

function init(args)
  path = args[1]
  body = '{"items":[{"skuId":"' .. args[2] .. '","quantity":1}]}'
  prefix = args[3] .. "-t" .. index .. "-"
  counter = 0
  accepted = 0
  refused = 0
end

function request()
  counter = counter + 1
  return wrk.format("POST", path, { ["X-User-Id"] = prefix .. counter, ["Content-Type"] = "application/json" }, body)
end

function response(status, headers, body)
  if status == 202 then
    accepted = accepted + 1
  else
    refused = refused + 1
  end
end

function done(summary, latency, requests)
  local a, r = 0, 0
  for _, thread in ipairs(threads) do
    a = a + thread:get("accepted")
    r = r + thread:get("refused")
  end
  local e = summary.errors
  io.write(string.format("RESULT requests=%d accepted=%d refused=%d socket_errors=%d p50_us=%d p99_us=%d\n",
    summary.requests, a, r, e.connect + e.read + e.write + e.timeout, latency:percentile(50),
    latency:percentile(99)))
end
