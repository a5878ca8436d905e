-- ORDERED -> CANCELLED | EXPIRED for a batch of one activity's orders, in one atomic step: MySQL closed each order and
-- gave its units back there, so here its sold units become available again and the buyer's allowance returns (as
-- restore.lua does for one, from the caller's buyer, request and lines, leaving the status letter as a tombstone).
-- Any other status (RESERVED, a tombstone, or none) changes nothing, so a batch restored twice, or an order restored by
-- another caller meanwhile, never gives units back twice. Every move is checked first, summed over the batch
-- (lib/ledger.lua's rules): when a counter would go below zero nothing is written. Versions are bumped.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations, 4 requests
-- ARGV: per order 5 values: reservationId, final status (CANCELLED or EXPIRED, checked by the caller), buyerId,
--       requestId, lines "sku:q,sku:q"
-- Reply: per order, the status the reservation had before this call ('' when the hot store never held it);
--        'ORDERED' means restored now. An FS_REFUSED error when the model refuses a move.

local stock, holdings, reservations = KEYS[1], KEYS[2], KEYS[3]
local reply, moves, needSold, needHolding = {}, {}, {}, {}
for i = 1, #ARGV, 5 do
    local id, finalStatus = ARGV[i], ARGV[i + 1]
    if finalStatus ~= 'CANCELLED' and finalStatus ~= 'EXPIRED' then
        return fs_refuse(id .. ': cannot restore to ' .. tostring(finalStatus))
    end
    local status, r = fs_restore_find(reservations, KEYS[4], id, ARGV[i + 2], ARGV[i + 3])
    reply[#reply + 1] = status
    if status == 'ORDERED' then
        local buyer = r and r.buyer or ARGV[i + 2]
        local lines, why = fs_decode_lines(r and r.lines or ARGV[i + 4])
        if not lines then
            return fs_refuse(id .. ': ' .. why)
        end
        moves[#moves + 1] = { id = id, buyer = buyer, lines = lines, status = finalStatus }
        for _, line in ipairs(lines) do
            needSold[line.sku] = (needSold[line.sku] or 0) + line.quantity
            local field = buyer .. ':' .. line.sku
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
        local f = fs_sku_fields(line.sku)
        redis.call('HINCRBY', stock, f.sold, -line.quantity)
        redis.call('HINCRBY', stock, f.avail, line.quantity)
        fs_take_holding(stock, holdings, move.buyer, line.sku, line.quantity)
        fs_bump_version(stock, line.sku)
    end
    fs_restored(reservations, move.id, move.status)
end
return reply
