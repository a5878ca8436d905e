-- Reads what reconciliation compares per SKU, in one atomic step whose cost follows the number of SKUs (their
-- ledgers, segments, applied adjustments and versions), never the number of buyers or reservations: those are read
-- in pages outside any atomic step, and this script, read again afterwards, tells which SKUs moved meanwhile.
--
-- The stock hash carries each SKU's sum of holdings (<sku>:held); tracksInFlight says the sale was loaded by scripts
-- that keep it and the in-flight index (a sale loaded before them is read whole, in pages). The records stock
-- transfers keep in a slice's stock hash (ADR 109) are no figure: they are read with the hash but left out of the
-- reply (fs_stock_without_transfers), so the reply follows the SKUs whatever the number of transfers.
--
-- KEYS: 1 meta, 2 stock (of a sale, or of one slice of a sale in slices)
-- Reply: {} when not ready, else { skus "a,b", loadId, stock as HGETALL less transfers, tracksInFlight '1' or '' }

local meta, stock = KEYS[1], KEYS[2]
local loaded = redis.call('HMGET', meta, 'ready', 'skus', 'loadId', 'tracksInFlight')
if loaded[1] ~= '1' then
    return {}
end
return { loaded[2], loaded[3] or '-', fs_stock_without_transfers(stock), loaded[4] or '' }
