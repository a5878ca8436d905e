-- Loads an activity's ledgers once. A loaded activity is left exactly as it is, so warming up
-- again can never reset stock that buyers already hold. Field names follow RedisKeys.
--
-- The filter of accepted request keys (ADR 0069) is made empty and usable unless the request index or a filter is
-- there already (what a partial loss or a rebuild left): an empty one would then say kept keys were never accepted.
--
-- The request index's bucket count (ADR 0100) is fixed here for the sale's life from its units, kept in meta as
-- requestBuckets; one a partial loss left in meta is kept (the index's entries are where it says), and a sale whose
-- single hash fs:{a}:requests is there without a count (warmed before the buckets) keeps that hash.
--
-- Nothing is loaded while an archive's or a rebuild's drop of the request index's buckets is unfinished (the drop
-- marker, ADR 0102): the sale's reservations would write buckets the drop's next pages unlink. The adapter finishes
-- the drop and warms up again.
--
-- KEYS: 1 meta, 2 stock, 3 requests (the request index's base key), 4 the filter of accepted request keys, 5 the drop
--       marker
-- ARGV: 1 startsAt epoch seconds, 2 startsAt nano, 3 endsAt epoch seconds, 4 endsAt nano,
--       5 activity limit, 6 SKU ids in item order as "a,b,c", 7 the filter's bits m, 8 its hash count k,
--       9 paused as recorded ('1' or '0', ADR 79), then per item from 10 on: skuId, total, effective limit, segments
-- Reply: 1 when loaded now, 0 when it was loaded before, 2 when a drop is unfinished (nothing loaded).

local meta, stock = KEYS[1], KEYS[2]
if redis.call('HGET', meta, 'ready') == '1' then
    return 0
end
if redis.call('EXISTS', KEYS[5]) == 1 then
    return 2
end
local units = 0
for i = 10, #ARGV, 4 do
    units = units + tonumber(ARGV[i + 1])
    local sku, total, limit, segments = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2], tonumber(ARGV[i + 3])
    redis.call('HSET', stock, sku .. ':total', ARGV[i + 1], sku .. ':reserved', 0, sku .. ':sold', 0,
        sku .. ':limit', limit, sku .. ':segments', segments, sku .. ':held', 0)
    -- An even split; the first (total mod segments) segments carry one unit more.
    local share, extra = math.floor(total / segments), total % segments
    for s = 1, segments do
        redis.call('HSET', stock, sku .. ':avail:' .. s, share + (s <= extra and 1 or 0))
    end
end
local buckets = redis.call('HGET', meta, 'requestBuckets')
if not buckets and redis.call('EXISTS', KEYS[3]) == 0 then
    buckets = fs_request_buckets_for(units)
    redis.call('HSET', meta, 'requestBuckets', buckets)
end
local index, kept = fs_request_keys(KEYS[3], buckets), redis.call('EXISTS', KEYS[4])
for first = 1, #index, FS_ARGUMENTS_PER_CALL do
    kept = kept + redis.call('EXISTS', unpack(index, first, math.min(#index, first + FS_ARGUMENTS_PER_CALL - 1)))
end
if kept == 0 then
    fs_keys_make(KEYS[4], tonumber(ARGV[7]), tonumber(ARGV[8]), 1, FS_KEYS_WORD_LAYOUT)
end
redis.call('HSET', meta, 'startsAtSec', ARGV[1], 'startsAtNano', ARGV[2], 'endsAtSec', ARGV[3],
    'endsAtNano', ARGV[4], 'limit', ARGV[5], 'skus', ARGV[6], 'loadId', fs_new_load_id(), 'tracksInFlight', '1',
    'paused', ARGV[9])
-- A new load: versions read before it never match after it (see lib/ledger.lua). Ready goes last: it is what
-- reserve.lua checks.
redis.call('HSET', meta, 'ready', '1')
return 1
