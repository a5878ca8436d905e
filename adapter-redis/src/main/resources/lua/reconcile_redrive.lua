-- Appends the "reserved" event of a reservation that is still RESERVED to the outbox again, exactly as reserve.lua
-- wrote it, so the order pipeline settles a reservation whose first event was lost. MySQL's keys make a second
-- delivery harmless. Any other status (or no reservation) appends nothing.
--
-- KEYS: 1 reservations, 2 outbox
-- ARGV: 1 reservationId, 2 activityId, 3 reservedAt epoch millis
-- Reply: 1 when appended, 0 otherwise.

local reservations, outbox, id = KEYS[1], KEYS[2], ARGV[1]
local r = redis.call('HMGET', reservations, id .. ':status', id .. ':buyer', id .. ':requestId', id .. ':lines',
    id .. ':reservedAt')
if r[1] ~= 'RESERVED' then
    return 0
end
redis.call('XADD', outbox, '*', 'type', 'reserved', 'reservationId', id, 'activityId', ARGV[2],
    'buyerId', r[2], 'requestId', r[3], 'lines', r[4], 'at', ARGV[3], 'reservedAt', r[5])
return 1
