-- ORDERED -> CANCELLED | EXPIRED: MySQL closed the order and gave its units back there, so here sold units
-- become available again and the buyer's allowance returns. Any other status (or no reservation) changes
-- nothing, so a second restore, from any caller, can never give the units back twice.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations
-- ARGV: 1 reservationId, 2 final status: CANCELLED or EXPIRED (checked by the caller)
-- Reply: 1 when restored now, 0 otherwise.

local stock, holdings, reservations, id, finalStatus = KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2]
local r = redis.call('HMGET', reservations, id .. ':status', id .. ':buyer', id .. ':lines')
if r[1] ~= 'ORDERED' then
    return 0
end
for sku, quantity in string.gmatch(r[3], '([^,:]+):(%d+)') do
    quantity = tonumber(quantity)
    redis.call('HINCRBY', stock, sku .. ':sold', -quantity)
    -- Only the sum over segments counts, so the units may go back to any one of them.
    redis.call('HINCRBY', stock, sku .. ':avail:1', quantity)
    local holdingField = r[2] .. ':' .. sku
    if redis.call('HINCRBY', holdings, holdingField, -quantity) == 0 then
        redis.call('HDEL', holdings, holdingField)
    end
end
redis.call('HSET', reservations, id .. ':status', finalStatus)
return 1
