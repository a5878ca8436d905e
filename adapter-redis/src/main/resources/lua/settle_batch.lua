-- Tells the hot store what MySQL decided for a batch of one activity's reservations, in one atomic step.
-- Confirmed: RESERVED -> ORDERED, reserved units become sold (as confirm.lua). Failed: RESERVED -> FAILED and the
-- units go back at once, to available and to the buyer's allowance (as release.lua); MySQL refused the order and
-- holds none of its units, so this is the one place they come back, and the status check makes it happen once.
-- A reservation in any other status (or missing) is left alone, so the whole batch may be settled again.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations
-- ARGV: 1 number of confirmed ids n, then n confirmed ids, then the failed ids
-- Reply: per id, in ARGV order, the status it had before this call ('' when there is no such reservation);
--        'RESERVED' means this call moved it.

local stock, holdings, reservations = KEYS[1], KEYS[2], KEYS[3]
local confirmed = tonumber(ARGV[1])
local reply = {}
for i = 2, #ARGV do
    local id = ARGV[i]
    local r = redis.call('HMGET', reservations, id .. ':status', id .. ':buyer', id .. ':lines')
    reply[#reply + 1] = r[1] or ''
    if r[1] == 'RESERVED' then
        local confirming = i <= confirmed + 1
        for sku, quantity in string.gmatch(r[3], '([^,:]+):(%d+)') do
            quantity = tonumber(quantity)
            redis.call('HINCRBY', stock, sku .. ':reserved', -quantity)
            if confirming then
                redis.call('HINCRBY', stock, sku .. ':sold', quantity)
            else
                -- Only the sum over segments counts, so the units may go back to any one of them.
                redis.call('HINCRBY', stock, sku .. ':avail:1', quantity)
                local holdingField = r[2] .. ':' .. sku
                if redis.call('HINCRBY', holdings, holdingField, -quantity) <= 0 then
                    redis.call('HDEL', holdings, holdingField)
                end
            end
        end
        redis.call('HSET', reservations, id .. ':status', confirming and 'ORDERED' or 'FAILED')
    end
end
return reply
