-- Takes one token from a rate-limit bucket, in one atomic step (ADR 0048). The bucket is kept as the GCRA's
-- theoretical arrival time (microseconds of Redis TIME, one clock for every instance): a token bucket of `capacity`
-- whose tokens come back one every `interval` microseconds, greedily (as Bucket4j's refillGreedy), as one number.
-- KEYS[1] the bucket; ARGV[1] capacity, ARGV[2] interval in microseconds (a period divided by its tokens, may have a
-- fraction), ARGV[3] how long the key is kept after the bucket would be full again, in milliseconds.
-- Returns {1, tokens left, 0} or {0, 0, microseconds until the next token}.
local capacity = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local keep = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now) or now
if tat < now then
  tat = now
end
local late = tat - now - (capacity - 1) * interval
if late > 0 then
  return {0, 0, math.ceil(late)}
end
local after = tat + interval
redis.call('SET', KEYS[1], string.format('%.0f', after), 'PX', math.ceil((after - now) / 1000) + keep)
return {1, math.floor((capacity * interval - (after - now)) / interval + 1e-9), 0}
