-- Loads an activity's ledgers once. A loaded activity is left exactly as it is, so warming up
-- again can never reset stock that buyers already hold. Field names follow RedisKeys.
--
-- The filter of accepted request keys (ADR 0069) is made empty and usable unless the request index or a filter is
-- there already (what a partial loss or a rebuild left): an empty one would then say kept keys were never accepted.
-- A rebuild running counts as an index there: its pages write entries at any time.
--
-- The request index's bucket count (ADR 0100) is fixed here for the sale's life from its units, kept in meta as
-- requestBuckets; one a partial loss left in meta is kept (the index's entries are where it says), and a sale whose
-- single hash fs:{a}:requests is there without a count (warmed before the buckets) keeps that hash.
--
-- The buckets are looked for a page at a time (ADR 0106: 8,192 keys take longer than a command may). A call that
-- finds a page empty and buckets left to look at notes meta's requestBucketsChecked (the buckets 1 .. n found absent)
-- and answers 3, loading nothing; the adapter calls again, and the next call goes on from there. What one call
-- noted still holds in the next: only reserve.lua (once ready is set, then this script answers 0) and rebuild_page.lua
-- (while meta says rebuilding, then no filter is made) write a bucket, and a loss that takes meta takes the note.
--
-- Nothing is loaded while an archive's or a rebuild's drop of the request index's buckets is unfinished (the drop
-- marker, ADR 0102): the sale's reservations would write buckets the drop's next pages unlink. The adapter finishes
-- the drop and warms up again.
--
-- A sale of n slices (ADR 109) is loaded by one call per slice, on the slice's keys with its share of every SKU; each
-- slice's meta records n in the step that makes it ready, so no slice is ever ready without it. A sale of one slice
-- writes no count (absent reads as 1): its keys are what they were before slices.
--
-- KEYS: 1 meta, 2 stock, 3 requests (the request index's base key), 4 the filter of accepted request keys, 5 the drop
--       marker (all of the slice)
-- ARGV: 1 startsAt epoch seconds, 2 startsAt nano, 3 endsAt epoch seconds, 4 endsAt nano,
--       5 activity limit, 6 SKU ids in item order as "a,b,c", 7 the filter's bits m, 8 its hash count k,
--       9 paused as recorded ('1' or '0', ADR 79), 10 the sale's slice count,
--       then per item from 11 on: skuId, the slice's total, effective limit, segments
-- Reply: 1 when loaded now, 0 when it was loaded before, 2 when a drop is unfinished (nothing loaded), 3 when buckets
--        are left to look at (nothing loaded but meta's requestBuckets and requestBucketsChecked).

-- Buckets one call looks at, at most: a call that found the first of 256 took 0.5-0.7 ms, of 512 up to 2.2 (ADR 0106).
local CHECK_PAGE = 256

-- Whether the index is empty, so that a fresh filter is exact: true when no filter, no single hash and no bucket is
-- there and no rebuild runs, false when one is or does, nil when buckets are left to look at (noted in meta).
local function indexEmpty(meta, requests, filter, buckets)
    if redis.call('EXISTS', filter, requests) > 0 or redis.call('HEXISTS', meta, 'rebuilding') == 1 then
        return false
    end
    local count = tonumber(buckets or '0')
    local from = tonumber(redis.call('HGET', meta, 'requestBucketsChecked') or '0')
    local to = math.min(count, from + CHECK_PAGE)
    local page = {}
    for k = from + 1, to do
        page[#page + 1] = requests .. ':' .. k
    end
    if #page > 0 and redis.call('EXISTS', unpack(page)) > 0 then
        return false
    end
    if to < count then
        redis.call('HSET', meta, 'requestBucketsChecked', to)
        return nil
    end
    return true
end

local meta, stock = KEYS[1], KEYS[2]
if redis.call('HGET', meta, 'ready') == '1' then
    return 0
end
if redis.call('EXISTS', KEYS[5]) == 1 then
    return 2
end
local FIRST_ITEM = 11
local units = 0
for i = FIRST_ITEM, #ARGV, 4 do
    units = units + tonumber(ARGV[i + 1])
end
local buckets = redis.call('HGET', meta, 'requestBuckets')
if not buckets and redis.call('EXISTS', KEYS[3]) == 0 then
    buckets = fs_request_buckets_for(units)
    redis.call('HSET', meta, 'requestBuckets', buckets)
end
local empty = indexEmpty(meta, KEYS[3], KEYS[4], buckets)
if empty == nil then
    return 3
end
for i = FIRST_ITEM, #ARGV, 4 do
    local sku, total, limit, segments = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2], tonumber(ARGV[i + 3])
    redis.call('HSET', stock, sku .. ':total', ARGV[i + 1], sku .. ':reserved', 0, sku .. ':sold', 0,
        sku .. ':limit', limit, sku .. ':segments', segments, sku .. ':held', 0)
    -- An even split; the first (total mod segments) segments carry one unit more.
    local share, extra = math.floor(total / segments), total % segments
    for s = 1, segments do
        redis.call('HSET', stock, sku .. ':avail:' .. s, share + (s <= extra and 1 or 0))
    end
end
if empty then
    fs_keys_make(KEYS[4], tonumber(ARGV[7]), tonumber(ARGV[8]), 1, FS_KEYS_WORD_LAYOUT)
end
redis.call('HDEL', meta, 'requestBucketsChecked')
redis.call('HSET', meta, 'startsAtSec', ARGV[1], 'startsAtNano', ARGV[2], 'endsAtSec', ARGV[3],
    'endsAtNano', ARGV[4], 'limit', ARGV[5], 'skus', ARGV[6], 'loadId', fs_new_load_id(), 'tracksInFlight', '1',
    'paused', ARGV[9])
if ARGV[10] ~= '1' then
    redis.call('HSET', meta, 'slices', ARGV[10])
end
-- A new load: versions read before it never match after it (see lib/ledger.lua). Ready goes last: it is what
-- reserve.lua checks.
redis.call('HSET', meta, 'ready', '1')
return 1
