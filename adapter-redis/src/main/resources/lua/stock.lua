-- Reads every ledger of an activity in item order as one consistent snapshot.
--
-- KEYS: 1 meta, 2 stock
-- Reply: {} when not warmed up, else per SKU five entries: skuId, total, reserved, sold, available
-- (available summed over the segments, so the caller can check it against the other three). A figure the SKU lost
-- (a damaged ledger, which reconciliation repairs) is answered -1 and a lost segment counts 0: the reply stays well
-- formed, and the caller finds the figures disagree instead of failing on a script error.

local meta, stock = KEYS[1], KEYS[2]
local loaded = redis.call('HMGET', meta, 'ready', 'skus')
if loaded[1] ~= '1' then
    return {}
end
local figures = {}
for sku in string.gmatch(loaded[2], '[^,]+') do
    local f = redis.call('HMGET', stock, sku .. ':total', sku .. ':reserved', sku .. ':sold', sku .. ':segments')
    local available = 0
    for s = 1, tonumber(f[4]) or 0 do
        available = available + (tonumber(redis.call('HGET', stock, sku .. ':avail:' .. s)) or 0)
    end
    for _, value in ipairs({ sku, f[1] or -1, f[2] or -1, f[3] or -1, available }) do
        figures[#figures + 1] = value
    end
end
return figures
