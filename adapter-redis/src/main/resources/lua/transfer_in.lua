-- The target's half of a stock transfer between two slices of a sale (ADR 109): adds the units the source gave to one
-- SKU's total and available here, spread evenly over its segments, once per transfer: <sku>:xin:<transfer id> keeps
-- the units added, so a repeat (a runner that crashed before the database heard it, the sweep) adds nothing.
-- Field names follow RedisKeys.
--
-- KEYS: 1 meta, 2 stock (of the target slice)
-- ARGV: 1 sku, 2 transfer id, 3 units (whole numbers)
-- Reply: {'CREDITED', units added now} | {'CREDITED_BEFORE', units the first call added} | {'UNKNOWN_SKU'}
--        | {'NOT_LOADED'}

local meta, stock = KEYS[1], KEYS[2]
local sku, transfer, units = ARGV[1], ARGV[2], ARGV[3]
local refusal = fs_transfer_refusal(transfer, units)
if refusal then
    return refusal
end
local segments, unloaded = fs_loaded_segments(meta, stock, sku)
if not segments then
    return unloaded
end
local record = sku .. FS_TRANSFER_IN .. transfer
local before = redis.call('HGET', stock, record)
if before then
    return { 'CREDITED_BEFORE', tonumber(before) }
end
local added = tonumber(units)
if added > 0 then
    fs_avail_spread(stock, sku, segments, added)
    fs_bump_version(stock, sku)
    redis.call('HINCRBY', stock, sku .. ':total', added)
end
redis.call('HSET', stock, record, added)
return { 'CREDITED', added }
