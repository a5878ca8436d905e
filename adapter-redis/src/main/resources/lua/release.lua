-- RESERVED -> CANCELLED: the units go back to available and to the buyer's allowance.
-- Any other status (or no reservation) changes nothing, so releasing twice is harmless.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations
-- ARGV: 1 reservationId, 2 optional: when the buyer cancelled (ISO-8601), kept as <id>:cancelledAt
-- Reply: 1 when released now, 0 otherwise.

local stock, holdings, reservations, id = KEYS[1], KEYS[2], KEYS[3], ARGV[1]
local r = redis.call('HMGET', reservations, id .. ':status', id .. ':buyer', id .. ':lines')
if r[1] ~= 'RESERVED' then
    return 0
end
for sku, quantity in string.gmatch(r[3], '([^,:]+):(%d+)') do
    quantity = tonumber(quantity)
    redis.call('HINCRBY', stock, sku .. ':reserved', -quantity)
    -- Only the sum over segments counts, so the units may go back to any one of them.
    redis.call('HINCRBY', stock, sku .. ':avail:1', quantity)
    local holdingField = r[2] .. ':' .. sku
    if redis.call('HINCRBY', holdings, holdingField, -quantity) == 0 then
        redis.call('HDEL', holdings, holdingField)
    end
end
redis.call('HSET', reservations, id .. ':status', 'CANCELLED')
if ARGV[2] then
    redis.call('HSET', reservations, id .. ':cancelledAt', ARGV[2])
end
return 1
