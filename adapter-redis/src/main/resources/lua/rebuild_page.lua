-- One page of a rebuild (see rebuild_begin.lua): MySQL's orders, a few hundred at most, become request index entries
-- and what the hot store keeps of a settled reservation (ADR 71): no record for an ORDERED or PAID one, the status
-- letter for a CANCELLED or EXPIRED one (so a restore arriving after the rebuild gives nothing back twice), the whole
-- record for a FAILED one. The units of ORDERED and PAID ones count as sold and as their buyers' holdings, so the
-- ledger rebuilt is exactly the sum of the orders rebuilt. The cursor (the last order id of
-- the page) is written in the same step, so a rebuild taken over resumes after it and never counts a page twice.
-- Each request key goes into the filter of accepted request keys with its index entry (ADR 0069).
-- Nothing is written unless the rebuild id is the current one, the cursor is the one this page follows, and the
-- buckets the rebuild's begin drops are gone (no drop marker, ADR 0102).
--
-- KEYS: 1 meta, 2 stock, 3 holdings, 4 reservations, 5 requests (the request index's base key: the entries go to the
--       buckets meta's requestBuckets names, ADR 0100), 6 the filter of accepted request keys, 7 the drop marker
-- ARGV: 1 rebuildId, 2 the cursor this page follows ('' for the first), 3 this page's cursor, 4 the prefix of the
--       slice's reservation ids, up to their last dot: the activity id, or '<a>.<k>of<n>' (ADR 109, fs_request_value),
--       then per order 6 values: reservationId, buyer, requestId, status, reservedAt (ISO-8601), lines "sku:q,sku:q"
-- Reply: 1 when written, 0 when the rebuild was taken over or its drop is unfinished (nothing written); error
--        FS_REFUSED on malformed lines.

local meta, stock, holdings, reservations, requests = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local state = redis.call('HMGET', meta, 'rebuilding', 'rebuildCursor', 'requestBuckets')
if state[1] ~= ARGV[1] or (state[2] or '') ~= ARGV[2] or redis.call('EXISTS', KEYS[7]) == 1 then
    return 0
end
local pages = {}
for i = 5, #ARGV, 6 do
    local lines, why = fs_decode_lines(ARGV[i + 5])
    if not lines then
        return fs_refuse('order ' .. ARGV[i] .. ': ' .. why)
    end
    if not fs_record_status_known(ARGV[i + 3]) then
        return fs_refuse('order ' .. ARGV[i] .. ': no such status ' .. ARGV[i + 3])
    end
    pages[#pages + 1] = lines
end
local n, filter = 0, fs_keys_open(KEYS[6])
for i = 5, #ARGV, 6 do
    n = n + 1
    local id, buyer, status = ARGV[i], ARGV[i + 1], ARGV[i + 3]
    -- An ordered one's entry is how a restore finds it, so it wins over another order of the same request (ADR 61).
    local ordered = status == 'ORDERED' or status == 'PAID'
    local field = buyer .. ':' .. ARGV[i + 2]
    redis.call(ordered and 'HSET' or 'HSETNX', fs_request_key(requests, state[3], field), field,
        fs_request_value(ARGV[4], id, ARGV[i + 2]))
    fs_keys_add(filter, field)
    if status == 'FAILED' then
        fs_record_write(reservations, id, { status = status, buyer = buyer, requestId = ARGV[i + 2],
            lines = ARGV[i + 5], reservedAt = fs_instant_pack(ARGV[i + 4]) })
    elseif status == 'CANCELLED' or status == 'EXPIRED' then
        fs_restored(reservations, id, status)
    else
        fs_settle(reservations, id)
        for _, line in ipairs(pages[n]) do
            redis.call('HINCRBY', stock, line.sku .. ':sold', line.quantity)
            fs_add_holding(stock, holdings, buyer, line.sku, line.quantity)
        end
    end
end
redis.call('HSET', meta, 'rebuildCursor', ARGV[3], 'rebuildBeat', redis.call('TIME')[1])
return 1
