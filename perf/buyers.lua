-- wrk script: POST one unit of one SKU as a signed-in buyer on every request, a fresh buyer each while the pool lasts.
-- args: path, skuId, delay ms between a connection's requests (0: as fast as it goes), a tag unique to the run,
--       "keyed" to send a fresh requestId (idempotency key) with every attempt, as the buyer page does,
--       the token directory (perf/BuyerTokens.java: buyer-token-header.txt, buyer-tokens.txt), the first token's index,
--       the number of wrk threads.
-- Thread t of n takes the tokens first+t-1, first+t-1+n, ... (all signed before the run: the service verifies each,
-- the client signs nothing); past the pool's end it starts again at its beginning (buyers then come back). The buyer's
-- name also goes in X-User-Id, which buyer-auth=jwt ignores, so that older jars (trusted-header) and the plain
-- servlet's ceiling (perf/RawServletCeiling.java) read the same requests.
-- The threads do not go equally fast, so a run reports the most requests any one thread sent (furthest=): the next
-- run on the same sale starts past furthest x threads tokens, or the slower threads' buyers would come back in it.
counter = 0 -- global: done() reads each thread's count through thread:get
local pause = 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("index", #threads)
end

function init(args)
  path = args[1]
  items = '"items":[{"skuId":"' .. args[2] .. '","quantity":1}]'
  keyed = args[5] == "keyed"
  pause = tonumber(args[3] or "0")
  if pause > 0 then
    -- wrk waits this long before a connection's next request: the half-rate row's pace (lost from 2026-12-05 to
    -- 2026-12-08, when those rows ran as fast as their 16 connections went)
    function delay()
      return pause
    end
  end
  prefix = args[4] .. "t" .. index
  local dir, first, n = args[6], tonumber(args[7] or "0"), tonumber(args[8] or "1")
  local header = io.open(dir .. "/buyer-token-header.txt"):read("*l")
  local all = {}
  for line in io.lines(dir .. "/buyer-tokens.txt") do all[#all + 1] = line end
  bearers, names = {}, {}
  local start = (first + index - 1) % #all
  for k = 0, #all - 1, n do
    local at = (start + k) % #all
    bearers[#bearers + 1] = "Bearer " .. header .. all[at + 1]
    names[#names + 1] = "hb" .. at
  end
  all = nil
  collectgarbage()
end

function request()
  counter = counter + 1
  local body = keyed and ('{"requestId":"' .. prefix .. "k" .. counter .. '",' .. items .. '}') or ('{' .. items .. '}')
  local at = (counter - 1) % #bearers + 1
  return wrk.format("POST", path, { ["Authorization"] = bearers[at], ["X-User-Id"] = names[at],
                                    ["Content-Type"] = "application/json" }, body)
end

function done(summary, latency, requests)
  local e = summary.errors
  local furthest = 0
  for _, thread in ipairs(threads) do furthest = math.max(furthest, thread:get("counter") or 0) end
  io.write(string.format("RESULT requests=%d duration_us=%d non2xx=%d socket_errors=%d p50_us=%d p99_us=%d furthest=%d\n",
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), furthest))
end
