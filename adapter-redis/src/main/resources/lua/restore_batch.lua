-- ORDERED -> CANCELLED | EXPIRED for a batch of one activity's orders, in one atomic step: MySQL closed each order and
-- gave its units back there, so here its sold units become available again and the buyer's allowance returns (as
-- restore.lua does for one). Any other status (or no reservation) changes nothing, so a batch restored twice, or an
-- order restored by another caller meanwhile, never gives units back twice.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations
-- ARGV: pairs of reservationId, final status (CANCELLED or EXPIRED, checked by the caller)
-- Reply: per pair, the status the reservation had before this call ('' when there is none); 'ORDERED' means restored now.

local stock, holdings, reservations = KEYS[1], KEYS[2], KEYS[3]
local reply = {}
for i = 1, #ARGV, 2 do
    local id, finalStatus = ARGV[i], ARGV[i + 1]
    local r = redis.call('HMGET', reservations, id .. ':status', id .. ':buyer', id .. ':lines')
    reply[#reply + 1] = r[1] or ''
    if r[1] == 'ORDERED' then
        for sku, quantity in string.gmatch(r[3], '([^,:]+):(%d+)') do
            quantity = tonumber(quantity)
            redis.call('HINCRBY', stock, sku .. ':sold', -quantity)
            -- Only the sum over segments counts, so the units may go back to any one of them.
            redis.call('HINCRBY', stock, sku .. ':avail:1', quantity)
            local holdingField = r[2] .. ':' .. sku
            if redis.call('HINCRBY', holdings, holdingField, -quantity) <= 0 then
                redis.call('HDEL', holdings, holdingField)
            end
        end
        redis.call('HSET', reservations, id .. ':status', finalStatus)
    end
end
return reply
