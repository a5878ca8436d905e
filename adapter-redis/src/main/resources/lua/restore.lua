-- ORDERED -> CANCELLED | EXPIRED: MySQL closed the order and gave its units back there, so here sold units
-- become available again and the buyer's allowance returns. An ordered reservation has no record (ADR 71): the caller
-- gives the order's buyer, request and lines, and its request entry naming the id tells it from one the hot store never
-- held. The restore leaves the status letter as a tombstone; any other status (RESERVED, a tombstone, or none) changes
-- nothing, so a second restore, from any caller, can never give the units back twice.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations, 4 requests (the request index's base key, ADR 0100), 5 meta
-- ARGV: 1 reservationId, 2 final status: CANCELLED or EXPIRED (checked by the caller), 3 buyerId, 4 requestId,
--       5 lines "sku:q,sku:q"
-- Reply: the status the reservation had before this call ('' when the hot store never held it); 'ORDERED' means
--        restored now. Error FS_REFUSED, nothing written, when a counter would go below zero.

local stock, holdings, reservations, id, finalStatus = KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2]
local status, buyer, lines, why = fs_restore_lines(reservations, KEYS[4],
    redis.call('HGET', KEYS[5], 'requestBuckets'), id, finalStatus, ARGV[3], ARGV[4], ARGV[5])
why = why or (lines and fs_lines_short(stock, holdings, buyer, lines, 'sold', 'avail'))
if why then
    return fs_refuse(why)
end
if status ~= 'ORDERED' then
    return status
end
fs_lines_move(stock, holdings, buyer, lines, 'sold', 'avail')
fs_restored(reservations, id, finalStatus)
return status
