-- Rewrites one SKU's ledger and every buyer's holdings of it from MySQL's figures, in one atomic step, but only while
-- the SKU still shows the fingerprint the repair was computed from (total|reserved|sold as stored, '-' when missing):
-- any reservation, confirm, release, restore or adjustment since the snapshot changes it, and then nothing is written.
-- The available units are spread over the segments as warm_up.lua does. The adjustments the new total includes are
-- marked applied, so adjust.lua refuses them if they arrive late.
-- Cost: it reads the whole holdings hash to find the buyers of the SKU (see reconcile_snapshot.lua).
--
-- KEYS: 1 meta, 2 stock, 3 holdings
-- ARGV: 1 sku, 2 fingerprint, 3 total, 4 reserved, 5 sold, 6 available, 7 limit, 8 segments,
--       9 number of adjustment ids n, then n adjustment ids, then (buyer, units) pairs: every buyer's holdings
-- Reply: 'REPAIRED' | 'RETRY' | 'NOT_LOADED'

local meta, stock, holdings = KEYS[1], KEYS[2], KEYS[3]
local sku = ARGV[1]
if redis.call('HGET', meta, 'ready') ~= '1' then
    return 'NOT_LOADED'
end
local f = redis.call('HMGET', stock, sku .. ':total', sku .. ':reserved', sku .. ':sold', sku .. ':segments')
if (f[1] or '-') .. '|' .. (f[2] or '-') .. '|' .. (f[3] or '-') ~= ARGV[2] then
    return 'RETRY'
end

local available, segments = tonumber(ARGV[6]), tonumber(ARGV[8])
redis.call('HSET', stock, sku .. ':total', ARGV[3], sku .. ':reserved', ARGV[4], sku .. ':sold', ARGV[5],
    sku .. ':limit', ARGV[7], sku .. ':segments', ARGV[8])
for s = segments + 1, tonumber(f[4] or '0') do
    redis.call('HDEL', stock, sku .. ':avail:' .. s)
end
local share, extra = math.floor(available / segments), available % segments
for s = 1, segments do
    redis.call('HSET', stock, sku .. ':avail:' .. s, share + (s <= extra and 1 or 0))
end

local adjustments = tonumber(ARGV[9])
for i = 10, 9 + adjustments do
    redis.call('HSET', stock, sku .. ':adj:' .. ARGV[i], '1')
end

local fields = redis.call('HGETALL', holdings)
for i = 1, #fields, 2 do
    local heldSku = string.match(fields[i], ':([^:]+)$')
    if heldSku == sku then
        redis.call('HDEL', holdings, fields[i])
    end
end
for i = 10 + adjustments, #ARGV, 2 do
    redis.call('HSET', holdings, ARGV[i] .. ':' .. sku, ARGV[i + 1])
end
return 'REPAIRED'
