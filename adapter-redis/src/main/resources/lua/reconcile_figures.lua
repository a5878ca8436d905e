-- Reads what reconciliation compares per SKU, in one atomic step whose cost follows the number of SKUs (their
-- ledgers, segments, applied adjustments and versions), never the number of buyers or reservations: those are read
-- in pages outside any atomic step, and this script, read again afterwards, tells which SKUs moved meanwhile.
--
-- The stock hash carries each SKU's sum of holdings (<sku>:held); tracksInFlight says the sale was loaded by scripts
-- that keep it and the in-flight index (a sale loaded before them is read whole, in pages).
--
-- KEYS: 1 meta, 2 stock
-- Reply: {} when not ready, else { skus "a,b", loadId, stock as HGETALL, tracksInFlight '1' or '' }

local meta, stock = KEYS[1], KEYS[2]
local loaded = redis.call('HMGET', meta, 'ready', 'skus', 'loadId', 'tracksInFlight')
if loaded[1] ~= '1' then
    return {}
end
return { loaded[2], loaded[3] or '-', redis.call('HGETALL', stock), loaded[4] or '' }
