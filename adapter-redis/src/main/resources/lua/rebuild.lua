-- Loads an activity that Redis lost from MySQL's figures: per SKU total = stock, sold = sold, nothing reserved
-- (reservations that lived only in the lost Redis are gone with it), available spread over the segments, the
-- adjustments the totals include marked applied; every buyer's holdings as purchased. Whatever stock and holdings
-- a partial loss left behind is dropped first. Ready goes last, so reserve.lua answers NOT_READY until every ledger
-- is in place. An activity that is ready already is left exactly as it is.
--
-- KEYS: 1 meta, 2 stock, 3 holdings
-- ARGV: 1 startsAt epoch seconds, 2 startsAt nano, 3 endsAt epoch seconds, 4 endsAt nano, 5 activity limit,
--       6 SKU ids in item order "a,b", 7 number of items n,
--       then per item from 8 on: skuId, total, sold, effective limit, segments, applied adjustment ids "1,5" or '',
--       then (buyer, sku, units) triples
-- Reply: 1 when loaded now, 0 when it was loaded before.

local meta, stock, holdings = KEYS[1], KEYS[2], KEYS[3]
if redis.call('HGET', meta, 'ready') == '1' then
    return 0
end
redis.call('DEL', stock, holdings)
local items = tonumber(ARGV[7])
local last = 7 + 6 * items
for i = 8, last, 6 do
    local sku, total, sold, segments = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), tonumber(ARGV[i + 4])
    redis.call('HSET', stock, sku .. ':total', ARGV[i + 1], sku .. ':reserved', 0, sku .. ':sold', ARGV[i + 2],
        sku .. ':limit', ARGV[i + 3], sku .. ':segments', segments)
    local available = total - sold
    local share, extra = math.floor(available / segments), available % segments
    for s = 1, segments do
        redis.call('HSET', stock, sku .. ':avail:' .. s, share + (s <= extra and 1 or 0))
    end
    for id in string.gmatch(ARGV[i + 5], '[^,]+') do
        redis.call('HSET', stock, sku .. ':adj:' .. id, '1')
    end
end
for i = last + 1, #ARGV, 3 do
    redis.call('HSET', holdings, ARGV[i] .. ':' .. ARGV[i + 1], ARGV[i + 2])
end
redis.call('HSET', meta, 'startsAtSec', ARGV[1], 'startsAtNano', ARGV[2], 'endsAtSec', ARGV[3],
    'endsAtNano', ARGV[4], 'limit', ARGV[5], 'skus', ARGV[6], 'loadId', fs_new_load_id())
redis.call('HSET', meta, 'ready', '1')
return 1
