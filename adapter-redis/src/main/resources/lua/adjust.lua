-- Applies an audited stock adjustment that MySQL has applied already, once: total and available move by delta.
-- An increase is spread over the segments; a reduction is taken from them in order, never leaving one negative, and
-- is refused when the SKU has fewer units available. The adjustment's id is kept, so applying it again (or after a
-- repair that already included it) moves nothing.
--
-- KEYS: 1 meta, 2 stock
-- ARGV: 1 sku, 2 delta, 3 adjustment id
-- Reply: {'APPLIED', total, reserved, sold} | {'ALREADY_APPLIED'} | {'REFUSED', available} | {'UNKNOWN_SKU'}
--        | {'NOT_LOADED'}

local meta, stock = KEYS[1], KEYS[2]
local sku, delta, applied = ARGV[1], tonumber(ARGV[2]), ARGV[1] .. ':adj:' .. ARGV[3]
local segments, unloaded = fs_loaded_segments(meta, stock, sku)
if not segments then
    return unloaded
end
if redis.call('HEXISTS', stock, applied) == 1 then
    return { 'ALREADY_APPLIED' }
end
local counts, available = fs_avail_read(stock, sku, segments)
if available + delta < 0 then
    return { 'REFUSED', available }
end
if delta >= 0 then
    fs_avail_spread(stock, sku, segments, delta)
else
    fs_avail_take(stock, sku, counts, -delta)
end
local total = redis.call('HINCRBY', stock, sku .. ':total', delta)
redis.call('HSET', stock, applied, '1')
fs_bump_version(stock, sku)
local f = redis.call('HMGET', stock, sku .. ':reserved', sku .. ':sold')
return { 'APPLIED', total, tonumber(f[1]), tonumber(f[2]) }
