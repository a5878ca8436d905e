-- ORDERED -> CANCELLED | EXPIRED: MySQL closed the order and gave its units back there, so here sold units
-- become available again and the buyer's allowance returns. Any other status (or no reservation) changes
-- nothing, so a second restore, from any caller, can never give the units back twice.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations (4, the in-flight index, unused: an ORDERED one is not in it)
-- ARGV: 1 reservationId, 2 final status: CANCELLED or EXPIRED (checked by the caller)
-- Reply: 1 when restored now, 0 otherwise; error FS_REFUSED, nothing written, when a counter would go below zero.

local stock, holdings, reservations, id, finalStatus = KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2]
if finalStatus ~= 'CANCELLED' and finalStatus ~= 'EXPIRED' then
    return fs_refuse('cannot restore to ' .. tostring(finalStatus))
end
local r = fs_record_read(reservations, id)
if not r or r.status ~= 'ORDERED' then
    return 0
end
local lines, why = fs_decode_lines(r.lines)
why = why or fs_give_back(stock, holdings, r.buyer, lines, 'sold')
if why then
    return fs_refuse(why)
end
r.status = finalStatus
fs_record_write(reservations, id, r)
return 1
