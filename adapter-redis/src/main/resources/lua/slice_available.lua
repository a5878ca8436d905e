-- The units of one SKU a slice of a sale has available now (ADR 109): the sum over its segments, read in one step so
-- that a reserve or a transfer between the reads cannot make it a sum no moment had. Field names follow RedisKeys.
--
-- KEYS: 1 meta, 2 stock (of the slice)
-- ARGV: 1 sku
-- Reply: {'AVAILABLE', units} | {'UNKNOWN_SKU'} | {'NOT_LOADED'}

local meta, stock, sku = KEYS[1], KEYS[2], ARGV[1]
local segments, unloaded = fs_loaded_segments(meta, stock, sku)
if not segments then
    return unloaded
end
local _, available = fs_avail_read(stock, sku, segments)
return { 'AVAILABLE', available }
