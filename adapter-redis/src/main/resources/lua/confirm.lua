-- RESERVED -> ORDERED: MySQL has the order, so reserved units become sold. The buyer keeps
-- holding them, and the record leaves (fs_settle, ADR 71): MySQL holds the order now. Any other status (or no
-- record) changes nothing, so confirming twice is harmless.
--
-- KEYS: 1 stock, 2 reservations, 3 in-flight index
-- ARGV: 1 reservationId
-- Reply: 1 when confirmed now, 0 otherwise; error FS_REFUSED, nothing written, when reserved would go below zero.

local stock, reservations, id = KEYS[1], KEYS[2], ARGV[1]
local r, why = fs_reserved_move(stock, nil, reservations, id, 'sold')
if not r then
    return 0
end
if why then
    return fs_refuse(why)
end
fs_settle(reservations, id)
redis.call('HDEL', KEYS[3], id)
return 1
