-- ORDERED -> CANCELLED | EXPIRED for a batch of one activity's orders, in one atomic step: MySQL closed each order and
-- gave its units back there, so here its sold units become available again and the buyer's allowance returns (as
-- restore.lua does for one, from the caller's buyer, request and lines, leaving the status letter as a tombstone).
-- Any other status (RESERVED, a tombstone, or none) changes nothing, so a batch restored twice, or an order restored by
-- another caller meanwhile, never gives units back twice. Every move is checked first, summed over the batch
-- (lib/ledger.lua's rules): when a counter would go below zero nothing is written. Versions are bumped.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations, 4 requests (the request index's base key, ADR 0100), 5 meta
-- ARGV: per order 5 values: reservationId, final status (CANCELLED or EXPIRED, checked by the caller), buyerId,
--       requestId, lines "sku:q,sku:q"
-- Reply: per order, the status the reservation had before this call ('' when the hot store never held it);
--        'ORDERED' means restored now. An FS_REFUSED error when the model refuses a move.

local stock, holdings, reservations = KEYS[1], KEYS[2], KEYS[3]
local reply, moves, restored = {}, fs_moves(), {}
local buckets = redis.call('HGET', KEYS[5], 'requestBuckets')
for i = 1, #ARGV, 5 do
    local id, finalStatus = ARGV[i], ARGV[i + 1]
    local status, buyer, lines, why = fs_restore_lines(reservations, KEYS[4], buckets, id, finalStatus, ARGV[i + 2],
        ARGV[i + 3], ARGV[i + 4])
    if why then
        return fs_refuse(id .. ': ' .. why)
    end
    reply[#reply + 1] = status
    if status == 'ORDERED' then
        fs_moves_add(moves, lines, 'sold', 'avail', 1, buyer)
        restored[#restored + 1] = { id = id, status = finalStatus }
    end
end
local short = fs_moves_short(moves, stock, holdings)
if short then
    return fs_refuse(short)
end
fs_moves_write(moves, stock, holdings)
for _, order in ipairs(restored) do
    fs_restored(reservations, order.id, order.status)
end
return reply
