-- Reads a small sale as reconciliation compares it with MySQL, in one atomic step, and refuses to read a big one:
-- when the reservations, holdings and outbox hold more than ARGV[2] entries together, it answers {'TOO_BIG'} at once
-- and the adapter reads the sale in pages instead (see reconcile_figures.lua). Its cost is therefore capped by that
-- limit, never proportional to a sale's buyers or reservations; below it, one consistent look is cheaper than pages
-- and a busy small sale is judged on every pass.
-- Read: the stock hash (every SKU's ledger, segments, versions and applied adjustments; the records stock transfers
-- keep there are left out, fs_stock_without_transfers, though counted against the limit since they are read), every
-- buyer's holdings, the reservations that matter (RESERVED, ORDERED, FAILED, and CANCELLED by the buyer while
-- RESERVED) and the reservation ids whose outbox entries no relay has acknowledged (not read yet, or read and pending).
-- The keys of a sale, or of one slice of a sale in slices (ADR 110): the slice's ledgers, holdings and reservations.
--
-- KEYS: 1 meta, 2 stock, 3 holdings, 4 reservations, 5 outbox
-- ARGV: 1 relay group, 2 the most hash fields and stream entries to read in one step
-- Reply: {} when not ready, {'TOO_BIG'} above the limit, else { skus "a,b", loadId, stock as HGETALL less transfers,
--        holdings as HGETALL, reservations as { id, record as stored (lib/ledger.lua) }..., outbox reservation ids }

local meta, stock, holdings, reservations, outbox, group = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[1]
local loaded = redis.call('HMGET', meta, 'ready', 'skus', 'loadId')
if loaded[1] ~= '1' then
    return {}
end
local size = redis.call('HLEN', reservations) + redis.call('HLEN', holdings) + redis.call('HLEN', stock)
if redis.call('EXISTS', outbox) == 1 then
    size = size + redis.call('XLEN', outbox)
end
if size > tonumber(ARGV[2]) then
    return { 'TOO_BIG' }
end

local looked = {}
local fields = redis.call('HGETALL', reservations)
for i = 1, #fields, 2 do
    local status = fs_record_status_of(fields[i + 1])
    if status == 'RESERVED' or status == 'ORDERED' or status == 'FAILED'
            or (status == 'CANCELLED' and fs_record_decode(fields[i + 1]).cancelledAt) then
        looked[#looked + 1] = { fields[i], fields[i + 1] }
    end
end

local waiting = {}
local function collect(entries)
    for _, entry in ipairs(entries) do
        fs_outbox_entry_ids(entry[2], waiting)
    end
end
if redis.call('EXISTS', outbox) == 1 then
    local lastDelivered = fs_last_delivered(outbox, group)
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

return { loaded[2], loaded[3] or '-', fs_stock_without_transfers(stock), redis.call('HGETALL', holdings), looked,
         waiting }
