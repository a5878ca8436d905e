-- The last step of a rebuild (see rebuild_begin.lua): per SKU the total from MySQL, sold as the pages counted it from
-- the orders they wrote, nothing reserved (the outbox was drained before the rebuild began, and no reservation has
-- been accepted since), available = total - sold spread over the segments, the adjustments the total includes marked
-- applied; then the window, a new loadId, and ready last. O(SKUs). Nothing is written unless the rebuild id is the
-- current one and the buckets the rebuild's begin drops are gone (no drop marker, ADR 0102).
--
-- The filter of accepted request keys the pages refilled is marked usable in the same step (ADR 0069).
--
-- One slice of a sale in slices is rebuilt on its own keys alone (ADR 111), its total the slice's allotment. Its meta
-- records the slice count in the step that makes it ready, as warm_up.lua does: reserve.lua compares it with the
-- count the attempts' ids name, so a slice rebuilt without it would refuse every attempt. A sale of one slice writes
-- no count. The transfer steps the database's rows say the slice made are marked as the steps mark them
-- (transfer_out.lua, transfer_in.lua), so a take or a credit that reaches the rebuilt slice late changes nothing.
--
-- KEYS: 1 meta, 2 stock, 3 the filter of accepted request keys, 4 the drop marker
-- ARGV: 1 rebuildId, 2 startsAt epoch seconds, 3 startsAt nano, 4 endsAt epoch seconds, 5 endsAt nano,
--       6 activity limit, 7 SKU ids in item order "a,b", 8 number of items n,
--       then per item from 9 on: skuId, total, effective limit, segments, applied adjustment ids "1,5" or '',
--       then paused as recorded ('1' or '0', ADR 79), then the sale's slice count ('1' for a sale of one slice: no
--       count written, ADR 109), then the count m of transfer marks and m pairs: a stock hash field
--       ('<sku>:xout:<id>' or '<sku>:xin:<id>') and the units its step moved (ADR 111); absent: none
-- Reply: 1 when ready now, 0 when the rebuild was taken over or its drop is unfinished; error FS_REFUSED, nothing
--        written, when the orders hold more units of a SKU than its total or a transfer mark is malformed.

local meta, stock = KEYS[1], KEYS[2]
if redis.call('HGET', meta, 'rebuilding') ~= ARGV[1] or redis.call('EXISTS', KEYS[4]) == 1 then
    return 0
end
local items = tonumber(ARGV[8])
local last = 8 + 5 * items
for i = 9, last, 5 do
    local sold = fs_number(redis.call('HGET', stock, ARGV[i] .. ':sold'))
    if sold > tonumber(ARGV[i + 1]) then
        return fs_refuse(ARGV[i] .. ': orders hold ' .. sold .. ' units of a total of ' .. ARGV[i + 1])
    end
end
local marks = tonumber(ARGV[last + 3] or '0')
for i = last + 4, last + 3 + 2 * marks, 2 do
    if not (string.match(ARGV[i], ':xout:[1-9]%d*$') or string.match(ARGV[i], ':xin:[1-9]%d*$'))
            or not string.match(ARGV[i + 1] or '', '^%d+$') then
        return fs_refuse('not a transfer mark: ' .. tostring(ARGV[i]) .. ' = ' .. tostring(ARGV[i + 1]))
    end
end
for i = 9, last, 5 do
    local sku, total, segments = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 3])
    local sold = fs_number(redis.call('HGET', stock, sku .. ':sold'))
    redis.call('HSET', stock, sku .. ':total', total, sku .. ':reserved', 0, sku .. ':sold', sold,
        sku .. ':limit', ARGV[i + 2], sku .. ':segments', segments,
        sku .. ':held', fs_number(redis.call('HGET', stock, sku .. ':held')))
    local available = total - sold
    local share, extra = math.floor(available / segments), available % segments
    for s = 1, segments do
        redis.call('HSET', stock, sku .. ':avail:' .. s, share + (s <= extra and 1 or 0))
    end
    for id in string.gmatch(ARGV[i + 4], '[^,]+') do
        redis.call('HSET', stock, sku .. ':adj:' .. id, '1')
    end
end
redis.call('HDEL', meta, 'rebuilding', 'rebuildBeat', 'rebuildCursor', 'rebuildSince')
redis.call('HSET', meta, 'startsAtSec', ARGV[2], 'startsAtNano', ARGV[3], 'endsAtSec', ARGV[4],
    'endsAtNano', ARGV[5], 'limit', ARGV[6], 'skus', ARGV[7], 'loadId', fs_new_load_id(), 'tracksInFlight', '1',
    'paused', ARGV[last + 1])
if ARGV[last + 2] ~= '1' then
    redis.call('HSET', meta, 'slices', ARGV[last + 2])
end
for i = last + 4, last + 3 + 2 * marks, 2 do
    redis.call('HSET', stock, ARGV[i], ARGV[i + 1])
end
if redis.call('EXISTS', KEYS[3]) == 1 then
    redis.call('BITFIELD', KEYS[3], 'SET', 'u8', 40, 1)
end
redis.call('HSET', meta, 'ready', '1')
return 1
