-- Rewrites one SKU's ledger from MySQL's figures and the holdings of the buyers that drifted, in one atomic step,
-- but only while the SKU shows the version the repair was computed from (see lib/ledger.lua): any reservation,
-- confirm, failure, release, restore, adjustment or repair since the read changes it, and then nothing is written.
-- No value-based guard: two moves that cancel out still change the version. The available units are spread over
-- the segments as warm_up.lua does. The adjustments the new total includes are marked applied, so adjust.lua refuses
-- them if they arrive late. Cost: the SKU's segments and the buyers listed, never the whole holdings hash. The SKU's
-- sum of holdings (<sku>:held) moves with every holding written, or is set when the repair read every holding and
-- found the sum itself wrong. The records stock transfers keep in a slice's stock hash (<sku>:xout:<id>,
-- <sku>:xin:<id>, ADR 109) are left as they are: a repeat of a transfer must still find its first answer and move
-- nothing, and the figures written (the slice's allotment, ADR 110) already count what the transfers moved.
--
-- KEYS: 1 meta, 2 stock, 3 holdings (of a sale, or of one slice of a sale in slices)
-- ARGV: 1 sku, 2 version, 3 total, 4 reserved, 5 sold, 6 available, 7 limit, 8 segments,
--       9 the sum of holdings to write ('' keeps it moving with the holdings written),
--       10 number of adjustment ids n, then n adjustment ids, then (buyer, units) pairs: the buyers whose holdings
--       change, 0 removing the holding
-- Reply: 'REPAIRED' | 'RETRY' | 'NOT_LOADED'

local meta, stock, holdings = KEYS[1], KEYS[2], KEYS[3]
local sku = ARGV[1]
if redis.call('HGET', meta, 'ready') ~= '1' then
    return 'NOT_LOADED'
end
if fs_version(meta, stock, sku) ~= ARGV[2] then
    return 'RETRY'
end
for i = 3, 9 do
    if not (i == 9 and ARGV[i] == '') and not string.match(ARGV[i], '^%d+$') then
        return fs_refuse('figure ' .. i .. ' is not a whole number: ' .. ARGV[i])
    end
end

local available, segments = tonumber(ARGV[6]), tonumber(ARGV[8])
local oldSegments = fs_number(redis.call('HGET', stock, sku .. ':segments'))
redis.call('HSET', stock, sku .. ':total', ARGV[3], sku .. ':reserved', ARGV[4], sku .. ':sold', ARGV[5],
    sku .. ':limit', ARGV[7], sku .. ':segments', ARGV[8])
for s = segments + 1, oldSegments do
    redis.call('HDEL', stock, sku .. ':avail:' .. s)
end
local share, extra = math.floor(available / segments), available % segments
for s = 1, segments do
    redis.call('HSET', stock, sku .. ':avail:' .. s, share + (s <= extra and 1 or 0))
end

local adjustments = tonumber(ARGV[10])
for i = 11, 10 + adjustments do
    redis.call('HSET', stock, sku .. ':adj:' .. ARGV[i], '1')
end
local heldChange = 0
for i = 11 + adjustments, #ARGV, 2 do
    local field = ARGV[i] .. ':' .. sku
    heldChange = heldChange + tonumber(ARGV[i + 1]) - fs_number(redis.call('HGET', holdings, field))
    if ARGV[i + 1] == '0' then
        redis.call('HDEL', holdings, field)
    else
        redis.call('HSET', holdings, field, ARGV[i + 1])
    end
end
if ARGV[9] ~= '' then
    redis.call('HSET', stock, sku .. ':held', ARGV[9])
elseif heldChange ~= 0 then
    redis.call('HINCRBY', stock, sku .. ':held', heldChange)
end
fs_bump_version(stock, sku)
return 'REPAIRED'
