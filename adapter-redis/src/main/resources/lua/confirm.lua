-- RESERVED -> ORDERED: MySQL has the order, so reserved units become sold. The buyer keeps
-- holding them. Any other status (or no reservation) changes nothing, so confirming twice is harmless.
--
-- KEYS: 1 stock, 2 reservations
-- ARGV: 1 reservationId
-- Reply: 1 when confirmed now, 0 otherwise.

local stock, reservations, id = KEYS[1], KEYS[2], ARGV[1]
local r = redis.call('HMGET', reservations, id .. ':status', id .. ':lines')
if r[1] ~= 'RESERVED' then
    return 0
end
for sku, quantity in string.gmatch(r[2], '([^,:]+):(%d+)') do
    quantity = tonumber(quantity)
    redis.call('HINCRBY', stock, sku .. ':reserved', -quantity)
    redis.call('HINCRBY', stock, sku .. ':sold', quantity)
end
redis.call('HSET', reservations, id .. ':status', 'ORDERED')
return 1
