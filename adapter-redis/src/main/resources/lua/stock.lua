-- Reads every ledger of an activity in item order as one consistent snapshot.
--
-- KEYS: 1 meta, 2 stock
-- Reply: {} when not warmed up, else per SKU five entries: skuId, total, reserved, sold, available
-- (available summed over the segments, so the caller can check it against the other three).

local meta, stock = KEYS[1], KEYS[2]
local loaded = redis.call('HMGET', meta, 'ready', 'skus')
if loaded[1] ~= '1' then
    return {}
end
local figures = {}
for sku in string.gmatch(loaded[2], '[^,]+') do
    local f = redis.call('HMGET', stock, sku .. ':total', sku .. ':reserved', sku .. ':sold', sku .. ':segments')
    local available = 0
    for s = 1, tonumber(f[4]) do
        available = available + tonumber(redis.call('HGET', stock, sku .. ':avail:' .. s))
    end
    for _, value in ipairs({ sku, f[1], f[2], f[3], available }) do
        figures[#figures + 1] = value
    end
end
return figures
