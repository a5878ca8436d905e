-- The source's half of a stock transfer between two slices of a sale (ADR 109): takes at most the units asked of one
-- SKU from what this slice has available, never from what is reserved or sold, so the SKU's total and available fall
-- by the units taken and total = reserved + sold + available still holds. A segmented SKU gives from its segments the
-- first first, none below zero. The first call for a transfer decides: its answer is kept in
-- <sku>:xout:<transfer id>, so a repeat (a runner that crashed before the database heard the answer, the sweep) gets
-- the same answer and takes nothing. Field names follow RedisKeys.
--
-- KEYS: 1 meta, 2 stock (of the source slice)
-- ARGV: 1 sku, 2 transfer id, 3 units asked (whole numbers)
-- Reply: {'TAKEN', units taken now, 0 when none were available} | {'TAKEN_BEFORE', units the first call took}
--        | {'UNKNOWN_SKU'} | {'NOT_LOADED'}

local meta, stock = KEYS[1], KEYS[2]
local sku, transfer, asked = ARGV[1], ARGV[2], ARGV[3]
local refusal = fs_transfer_refusal(transfer, asked)
if refusal then
    return refusal
end
local segments, unloaded = fs_loaded_segments(meta, stock, sku)
if not segments then
    return unloaded
end
local record = sku .. FS_TRANSFER_OUT .. transfer
local before = redis.call('HGET', stock, record)
if before then
    return { 'TAKEN_BEFORE', tonumber(before) }
end
local counts, available = fs_avail_read(stock, sku, segments)
local taken = math.min(tonumber(asked), available)
if taken > 0 then
    fs_avail_take(stock, sku, counts, taken)
    redis.call('HINCRBY', stock, sku .. ':total', -taken)
    fs_bump_version(stock, sku)
end
redis.call('HSET', stock, record, taken)
return { 'TAKEN', taken }
