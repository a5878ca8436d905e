-- ORDERED -> CANCELLED | EXPIRED for a batch of one activity's orders, in one atomic step: MySQL closed each order and
-- gave its units back there, so here its sold units become available again and the buyer's allowance returns (as
-- restore.lua does for one). Any other status (or no reservation) changes nothing, so a batch restored twice, or an
-- order restored by another caller meanwhile, never gives units back twice. Every move is checked first, summed over
-- the batch (lib/ledger.lua's rules): when a counter would go below zero nothing is written. Versions are bumped.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations (4, the in-flight index, unused: an ORDERED one is not in it)
-- ARGV: pairs of reservationId, final status (CANCELLED or EXPIRED, checked by the caller)
-- Reply: per pair, the status the reservation had before this call ('' when there is none); 'ORDERED' means restored
--        now. An FS_REFUSED error when the model refuses a move.

local stock, holdings, reservations = KEYS[1], KEYS[2], KEYS[3]
local reply, moves, needSold, needHolding = {}, {}, {}, {}
for i = 1, #ARGV, 2 do
    local id, finalStatus = ARGV[i], ARGV[i + 1]
    if finalStatus ~= 'CANCELLED' and finalStatus ~= 'EXPIRED' then
        return fs_refuse(id .. ': cannot restore to ' .. tostring(finalStatus))
    end
    local r = fs_record_read(reservations, id)
    reply[#reply + 1] = r and r.status or ''
    if r and r.status == 'ORDERED' then
        local lines, why = fs_decode_lines(r.lines)
        if not lines then
            return fs_refuse(id .. ': ' .. why)
        end
        moves[#moves + 1] = { id = id, record = r, lines = lines, status = finalStatus }
        for _, line in ipairs(lines) do
            needSold[line.sku] = (needSold[line.sku] or 0) + line.quantity
            local field = r.buyer .. ':' .. line.sku
            needHolding[field] = (needHolding[field] or 0) + line.quantity
        end
    end
end
local short = fs_short_of_sums(stock, needSold, ':sold') or fs_short_of_sums(holdings, needHolding, '')
if short then
    return fs_refuse(short)
end
for _, move in ipairs(moves) do
    for _, line in ipairs(move.lines) do
        redis.call('HINCRBY', stock, line.sku .. ':sold', -line.quantity)
        redis.call('HINCRBY', stock, line.sku .. ':avail:1', line.quantity)
        fs_take_holding(stock, holdings, move.record.buyer, line.sku, line.quantity)
        fs_bump_version(stock, line.sku)
    end
    move.record.status = move.status
    fs_record_write(reservations, move.id, move.record)
end
return reply
