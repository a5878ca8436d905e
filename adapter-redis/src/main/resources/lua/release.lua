-- RESERVED -> CANCELLED: the units go back to available and to the buyer's allowance.
-- Any other status (or no reservation) changes nothing, so releasing twice is harmless.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations, 4 in-flight index
-- ARGV: 1 reservationId, 2 optional: when the buyer cancelled (ISO-8601), kept as the record's cancelledAt
-- Reply: 1 when released now, 0 otherwise; error FS_REFUSED, nothing written, when a counter would go below zero.

local stock, holdings, reservations, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
local r, why = fs_reserved_move(stock, holdings, reservations, id, 'avail')
if not r then
    return 0
end
if why then
    return fs_refuse(why)
end
r.status = 'CANCELLED'
if ARGV[2] then
    -- The buyer's cancel: MySQL has not heard of it yet, so it stays in the in-flight index until reconciliation finds
    -- it settled there (ADR 32, 43).
    r.cancelledAt = fs_instant_pack(ARGV[2])
end
fs_record_write(reservations, id, r)
if not ARGV[2] then
    -- Told by the pipeline or reconciliation: MySQL closed it already.
    redis.call('HDEL', KEYS[4], id)
end
return 1
