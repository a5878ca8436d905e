-- Decides one reservation attempt in one atomic step, exactly as ActivityLedger.reserve does.
-- Nothing is written unless every line passes. Field names follow RedisKeys; fs_* come from lib/ledger.lua.
--
-- KEYS: 1 meta, 2 stock, 3 holdings, 4 reservations, 5 requests, 6 outbox, 7 in-flight index,
--       8 the filter of accepted request keys (ADR 0069),
--       9 the buyer's rate-limit bucket at this sale (read only when ARGV[10] is not empty)
-- ARGV: 1 reservationId, 2 activityId, 3 buyerId, 4 requestId,
--       5 now epoch seconds, 6 now nano-of-second (both empty: the window is judged by Redis TIME, one clock
--       for every instance), 7 reservedAt (ISO-8601), 8 reservedAt epoch millis,
--       9 lines as "sku:q,sku:q", 10 the bucket's capacity ('' for no bucket), 11 its interval in microseconds,
--       12 how long its key outlives a full bucket in milliseconds, then one (skuId, quantity) pair per line from 13 on
-- Reply: {'RATE_LIMITED', microseconds until the next token}
--        | {'RESERVED'} | {'REPLAYED', id, buyerId, requestId, lines, status, reservedAt} | {'NOT_READY'}
--        | {'NOT_STARTED', sec, nano} | {'ENDED', sec, nano} | {'UNKNOWN_SKU', sku}
--        | {'LIMIT_EXCEEDED', sku, limit, held} | {'SOLD_OUT', sku} | {'INSUFFICIENT_STOCK', sku, available}
--        | error FS_REFUSED when a SKU repeats or a quantity is below 1 (the model refuses such a request)

local meta, stock, holdings, reservations, requests, outbox = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local inflight = KEYS[7]
local id, activityId, buyer, requestId = ARGV[1], ARGV[2], ARGV[3], ARGV[4]

-- 0. The buyer's rate limit, before anything else as it was when it had a round trip of its own (ADR 0060): an
-- attempt without a token moves nothing, a replay included.
if ARGV[10] ~= '' then
    local taken, wait = fs_bucket_take(KEYS[9], tonumber(ARGV[10]), tonumber(ARGV[11]), tonumber(ARGV[12]),
        fs_now_micros())
    if not taken then
        return { 'RATE_LIMITED', wait }
    end
end

-- 1. The buyer sent this requestId before: answer with the reservation as it stands now.
local requestField = buyer .. ':' .. requestId
local earlier = redis.call('HGET', requests, requestField)
if earlier then
    local r = redis.call('HMGET', reservations, earlier .. ':buyer', earlier .. ':requestId', earlier .. ':lines',
        earlier .. ':status', earlier .. ':reservedAt')
    return { 'REPLAYED', earlier, r[1], r[2], r[3], r[4], r[5] }
end

-- 2. Warmed up, and inside the window [startsAt, endsAt). Instants compare as (seconds, nanos) to stay exact.
local window = redis.call('HMGET', meta, 'ready', 'startsAtSec', 'startsAtNano', 'endsAtSec', 'endsAtNano')
if window[1] ~= '1' then
    return { 'NOT_READY' }
end
local function isBefore(sec, nano, otherSec, otherNano)
    sec, otherSec = tonumber(sec), tonumber(otherSec)
    return sec < otherSec or (sec == otherSec and tonumber(nano) < tonumber(otherNano))
end
local nowSec, nowNano = ARGV[5], ARGV[6]
if nowSec == '' then
    local time = redis.call('TIME')
    nowSec, nowNano = time[1], tostring(tonumber(time[2]) * 1000)
end
if isBefore(nowSec, nowNano, window[2], window[3]) then
    return { 'NOT_STARTED', window[2], window[3] }
end
if not isBefore(nowSec, nowNano, window[4], window[5]) then
    return { 'ENDED', window[4], window[5] }
end

-- 3. Every SKU must belong to the sale before any line is judged on limit or stock.
local lines, why = fs_pairs_to_lines(ARGV, 13)
if not lines then
    return fs_refuse(why)
end
for _, line in ipairs(lines) do
    local known = redis.call('HMGET', stock, line.sku .. ':segments', line.sku .. ':limit')
    if not known[1] then
        return { 'UNKNOWN_SKU', line.sku }
    end
    line.segments, line.limit = tonumber(known[1]), tonumber(known[2])
end

-- 4. Line by line: the buyer's limit first, then the stock summed over the SKU's segments.
for _, line in ipairs(lines) do
    local held = tonumber(redis.call('HGET', holdings, buyer .. ':' .. line.sku) or '0')
    if held + line.quantity > line.limit then
        return { 'LIMIT_EXCEEDED', line.sku, line.limit, held }
    end
    local fields = {}
    for s = 1, line.segments do
        fields[s] = line.sku .. ':avail:' .. s
    end
    line.counts = redis.call('HMGET', stock, unpack(fields))
    local available = 0
    for s = 1, line.segments do
        line.counts[s] = tonumber(line.counts[s])
        available = available + line.counts[s]
    end
    if available == 0 then
        return { 'SOLD_OUT', line.sku }
    end
    if available < line.quantity then
        return { 'INSUFFICIENT_STOCK', line.sku, available }
    end
end

-- 5. Every line passed: deduct them all. A segmented SKU is taken from a rotating first segment
-- onwards until the quantity is covered, so the whole SKU's stock always counts.
for _, line in ipairs(lines) do
    local rest, first = line.quantity, 0
    if line.segments > 1 then
        first = redis.call('HINCRBY', stock, line.sku .. ':cursor', 1) % line.segments
    end
    for step = 0, line.segments - 1 do
        if rest == 0 then
            break
        end
        local s = (first + step) % line.segments + 1
        local take = math.min(rest, line.counts[s])
        if take > 0 then
            redis.call('HINCRBY', stock, line.sku .. ':avail:' .. s, -take)
            rest = rest - take
        end
    end
    redis.call('HINCRBY', stock, line.sku .. ':reserved', line.quantity)
    fs_add_holding(stock, holdings, buyer, line.sku, line.quantity)
    fs_bump_version(stock, line.sku)
end
redis.call('HSET', reservations, id .. ':buyer', buyer, id .. ':requestId', requestId, id .. ':lines', ARGV[9],
    id .. ':status', 'RESERVED', id .. ':reservedAt', ARGV[7])
redis.call('HSET', requests, requestField, id)
fs_keys_add(KEYS[8], requestField)
-- In flight until MySQL settles it: reconciliation reads this index, never every reservation of the sale.
redis.call('HSET', inflight, id, '1')
-- The outbox entry is written in the same step, so an accepted reservation can never miss its event.
redis.call('XADD', outbox, '*', 'type', 'reserved', 'reservationId', id, 'activityId', activityId,
    'buyerId', buyer, 'requestId', requestId, 'lines', ARGV[9], 'at', ARGV[8], 'reservedAt', ARGV[7])
return { 'RESERVED' }
