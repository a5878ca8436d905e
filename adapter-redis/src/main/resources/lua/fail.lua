-- RESERVED -> FAILED: MySQL refused the order. Nothing is given back: the units stay reserved and the buyer
-- keeps holding them until reconciliation decides. Any other status (or no reservation) changes nothing,
-- so failing twice is harmless.
--
-- KEYS: 1 reservations
-- ARGV: 1 reservationId
-- Reply: 1 when failed now, 0 otherwise.

local reservations, id = KEYS[1], ARGV[1]
if redis.call('HGET', reservations, id .. ':status') ~= 'RESERVED' then
    return 0
end
redis.call('HSET', reservations, id .. ':status', 'FAILED')
return 1
