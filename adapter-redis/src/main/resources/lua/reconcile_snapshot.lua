-- Reads an activity as reconciliation compares it with MySQL, in one atomic step: the stock hash (every SKU's ledger,
-- segments and applied adjustments), every buyer's holdings, the reservations that matter (RESERVED, ORDERED, FAILED,
-- and CANCELLED by the buyer while RESERVED) and the reservation ids whose outbox entries no relay has acknowledged
-- (not read yet, or read and pending).
-- Cost: it reads the whole holdings and reservations hashes and the unacknowledged part of the outbox, so it is
-- O(buyers + reservations) and blocks the activity's shard for that long: fine for sales of tens of thousands of
-- reservations, to be split into HSCAN pages guarded by the same fingerprint for much bigger ones.
--
-- KEYS: 1 meta, 2 stock, 3 holdings, 4 reservations, 5 outbox
-- ARGV: 1 relay group
-- Reply: {} when not ready, else { skus "a,b", stock as HGETALL, holdings as HGETALL,
--        reservations as { id, buyer, status, lines, reservedAt, cancelledAt or '' }..., outbox reservation ids }

local meta, stock, holdings, reservations, outbox, group = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[1]
local loaded = redis.call('HMGET', meta, 'ready', 'skus')
if loaded[1] ~= '1' then
    return {}
end

local records = {}
local order = {}
local fields = redis.call('HGETALL', reservations)
for i = 1, #fields, 2 do
    local id, attribute = string.match(fields[i], '^(.+):([^:]+)$')
    if id then
        if not records[id] then
            records[id] = {}
            order[#order + 1] = id
        end
        records[id][attribute] = fields[i + 1]
    end
end
local looked = {}
for _, id in ipairs(order) do
    local r = records[id]
    local status = r['status']
    if status == 'RESERVED' or status == 'ORDERED' or status == 'FAILED'
            or (status == 'CANCELLED' and r['cancelledAt']) then
        looked[#looked + 1] = { id, r['buyer'] or '', status, r['lines'] or '', r['reservedAt'] or '',
                                r['cancelledAt'] or '' }
    end
end

local waiting = {}
local function collect(entries)
    for _, entry in ipairs(entries) do
        local body = entry[2]
        for i = 1, #body, 2 do
            if body[i] == 'reservationId' then
                waiting[#waiting + 1] = body[i + 1]
            end
        end
    end
end
if redis.call('EXISTS', outbox) == 1 then
    local lastDelivered = nil
    for _, info in ipairs(redis.call('XINFO', 'GROUPS', outbox)) do
        local name, last
        for i = 1, #info, 2 do
            if info[i] == 'name' then
                name = info[i + 1]
            elseif info[i] == 'last-delivered-id' then
                last = info[i + 1]
            end
        end
        if name == group then
            lastDelivered = last
        end
    end
    if lastDelivered == nil then
        collect(redis.call('XRANGE', outbox, '-', '+'))
    else
        collect(redis.call('XRANGE', outbox, '(' .. lastDelivered, '+'))
        local pending = redis.call('XPENDING', outbox, group)
        if pending[1] > 0 then
            for _, entry in ipairs(redis.call('XPENDING', outbox, group, '-', '+', pending[1])) do
                collect(redis.call('XRANGE', outbox, entry[1], entry[1]))
            end
        end
    end
end

return { loaded[2], redis.call('HGETALL', stock), redis.call('HGETALL', holdings), looked, waiting }
