-- Shared by every script: LuaScript puts this text in front of each script before it takes the SHA, so one copy of
-- the rules serves them all (new scripts call the same functions). Invariants every script keeps:
--   * no counter (<sku>:total, :reserved, :sold, :avail:<i>, a holding) is ever taken below zero: a script checks
--     every move first and refuses, writing nothing, with fs_refuse;
--   * every call that changes a SKU's ledger, a holding of it, or the status of a reservation of it bumps
--     <sku>:version once (fs_bump_version); a repair applies only while the version it read is unchanged;
--   * meta's loadId changes with every warm-up and rebuild, so a version read before a loss never matches after it;
--   * <sku>:held is the sum of every buyer's holding of the SKU, moved with each holding (fs_add_holding,
--     fs_take_holding), so reconciliation compares one figure per SKU and reads the holdings only when it disagrees;
--   * the in-flight index (fs:{a}:inflight, reservation id -> '1') lists every reservation MySQL has not settled yet:
--     added by reserve.lua, removed when a script settles it (confirm, settle_batch, a release that is not the buyer's)
--     or when reconciliation finds it settled (reconcile_settled.lua). Reconciliation pages over it, not over every
--     reservation of the sale (ADR 43);
--   * the filter of accepted request keys (fs:{a}:keys) holds every key of the request index while it is usable: a
--     script that adds an index entry adds the key with fs_keys_add in the same step (ADR 69).

-- An error reply the adapter turns into an exception: the caller asked for a move the model refuses.
local function fs_refuse(why)
    return redis.error_reply('FS_REFUSED ' .. why)
end

local function fs_number(value)
    return tonumber(value or '0')
end

local function fs_bump_version(stock, sku)
    redis.call('HINCRBY', stock, sku .. ':version', 1)
end

-- The version a repair compares: the load it belongs to and the SKU's move count within that load.
local function fs_version(meta, stock, sku)
    return (redis.call('HGET', meta, 'loadId') or '-') .. '/' .. (redis.call('HGET', stock, sku .. ':version') or '0')
end

-- A fresh load id from the server's clock, so that no caller can hand in a stale one.
local function fs_new_load_id()
    local now = redis.call('TIME')
    return now[1] .. '.' .. now[2]
end

-- Lines as { { sku = s, quantity = q } ... } from (sku, quantity) pairs in args from index first on; nil and the
-- reason when a SKU repeats or a quantity is not a whole number of at least 1.
local function fs_pairs_to_lines(args, first)
    local lines, seen = {}, {}
    for i = first, #args, 2 do
        local sku, quantity = args[i], args[i + 1]
        if quantity == nil or not string.match(quantity, '^[1-9]%d*$') then
            return nil, 'quantity of ' .. tostring(sku) .. ' is not positive: ' .. tostring(quantity)
        end
        if seen[sku] then
            return nil, 'SKU ' .. sku .. ' appears twice'
        end
        seen[sku] = true
        lines[#lines + 1] = { sku = sku, quantity = tonumber(quantity) }
    end
    if #lines == 0 then
        return nil, 'no lines'
    end
    return lines
end

-- A stored "sku:q,sku:q" as lines, with the same checks as fs_pairs_to_lines.
local function fs_decode_lines(encoded)
    local flat = {}
    for sku, quantity in string.gmatch(encoded or '', '([^,:]+):([^,]*)') do
        flat[#flat + 1] = sku
        flat[#flat + 1] = quantity
    end
    return fs_pairs_to_lines(flat, 1)
end

-- nil when every line can take quantity from hash's <prefix><sku><suffix> without going below zero, else the reason.
local function fs_short(hash, lines, prefix, suffix)
    for _, line in ipairs(lines) do
        local field = prefix .. line.sku .. suffix
        local has = fs_number(redis.call('HGET', hash, field))
        if has < line.quantity then
            return field .. ' holds ' .. has .. ', cannot take ' .. line.quantity
        end
    end
    return nil
end

-- fs_short for a batch: needs maps <field> -> units the batch takes from hash's <field><suffix>, summed over it.
local function fs_short_of_sums(hash, needs, suffix)
    for field, quantity in pairs(needs) do
        local has = fs_number(redis.call('HGET', hash, field .. suffix))
        if has < quantity then
            return field .. suffix .. ' holds ' .. has .. ', cannot take ' .. quantity
        end
    end
    return nil
end

-- Adds units to a buyer's holding of a SKU and to the SKU's sum of holdings.
local function fs_add_holding(stock, holdings, buyer, sku, quantity)
    redis.call('HINCRBY', holdings, buyer .. ':' .. sku, quantity)
    redis.call('HINCRBY', stock, sku .. ':held', quantity)
end

-- Takes units off a buyer's holding of a SKU, removing it at zero (checked first with fs_short), and off the SKU's sum
-- of holdings. The sum is a figure reconciliation checks and repairs, so it is not a reason to refuse a move.
local function fs_take_holding(stock, holdings, buyer, sku, quantity)
    local field = buyer .. ':' .. sku
    if redis.call('HINCRBY', holdings, field, -quantity) == 0 then
        redis.call('HDEL', holdings, field)
    end
    redis.call('HINCRBY', stock, sku .. ':held', -quantity)
end

-- Gives the units of every line back from <figure> ('reserved' or 'sold'): the figure down, available up (only the sum
-- over segments counts, so segment 1 takes them), the buyer's holdings down, each SKU's version bumped. Everything is
-- checked first: the reason, with nothing written, when a counter would go below zero; nil when done.
local function fs_give_back(stock, holdings, buyer, lines, figure)
    local why = fs_short(stock, lines, '', ':' .. figure) or fs_short(holdings, lines, buyer .. ':', '')
    if why then
        return why
    end
    for _, line in ipairs(lines) do
        redis.call('HINCRBY', stock, line.sku .. ':' .. figure, -line.quantity)
        redis.call('HINCRBY', stock, line.sku .. ':avail:1', line.quantity)
        fs_take_holding(stock, holdings, buyer, line.sku, line.quantity)
        fs_bump_version(stock, line.sku)
    end
    return nil
end

-- The last-delivered id of the consumer group on the outbox stream, nil when the group does not exist.
local function fs_last_delivered(outbox, group)
    for _, info in ipairs(redis.call('XINFO', 'GROUPS', outbox)) do
        local name, last
        for i = 1, #info, 2 do
            if info[i] == 'name' then
                name = info[i + 1]
            elseif info[i] == 'last-delivered-id' then
                last = info[i + 1]
            end
        end
        if name == group then
            return last
        end
    end
    return nil
end

-- Whether the outbox is drained: the relays' group has no pending entry and nothing after its last-delivered id (or,
-- with no group yet, the stream is empty). Every reservation accepted before then is in the order pipeline.
local function fs_outbox_drained(outbox, group)
    if redis.call('EXISTS', outbox) == 0 then
        return true
    end
    local lastDelivered = fs_last_delivered(outbox, group)
    if lastDelivered == nil then
        return redis.call('XLEN', outbox) == 0
    end
    if redis.call('XPENDING', outbox, group)[1] > 0 then
        return false
    end
    return #redis.call('XRANGE', outbox, '(' .. lastDelivered, '+', 'COUNT', 1) == 0
end

-- Takes one token from a rate-limit bucket (ADR 0048, folded into reserve.lua by ADR 0060). The bucket is kept as
-- the GCRA's theoretical arrival time in microseconds of Redis TIME (one clock for every instance): a token bucket of
-- `capacity` whose tokens come back one every `interval` microseconds, greedily (as Bucket4j's refillGreedy), as one
-- number. `keep`: milliseconds the key outlives the moment its bucket would be full again.
-- Returns true, tokens left | false, microseconds until the next token. Writes only when a token is taken.
local function fs_bucket_take(key, capacity, interval, keep, now)
    local tat = tonumber(redis.call('GET', key) or now) or now
    if tat < now then
        tat = now
    end
    local late = tat - now - (capacity - 1) * interval
    if late > 0 then
        return false, math.ceil(late)
    end
    local after = tat + interval
    redis.call('SET', key, string.format('%.0f', after), 'PX', math.ceil((after - now) / 1000) + keep)
    return true, math.floor((capacity * interval - (after - now)) / interval + 1e-9)
end

-- Redis TIME in microseconds.
local function fs_now_micros()
    local time = redis.call('TIME')
    return tonumber(time[1]) * 1000000 + tonumber(time[2])
end

-- The sale's filter of accepted request keys (ADR 0069): a Bloom filter of every <buyer>:<requestId> the requests
-- index has held since the filter was made, so that an instance holding a copy can tell a key surely never accepted
-- (answered "sold out" from memory) from one that may have been (asked here, which replays it). Every script that
-- adds to the requests index adds the key here in the same step; only the scripts that drop the index drop it.
-- A string: an 8-byte header (u32 bits m at bit 0, u8 hash count k at bit 32, u8 state at bit 40: 1 usable, 0 being
-- refilled by a rebuild), then m bits from bit 64 on, allocated whole when made so that one GET reads all of it.
-- Positions of a key: h1, h2 the first two 32-bit words of its SHA-1, (h1 + i * h2) mod m for i = 0 .. k-1 (the
-- adapter's AcceptedRequestsFilter computes the same ones).
local FS_KEYS_HEADER_BITS = 64

local function fs_keys_make(filter, bits, hashes, state)
    redis.call('UNLINK', filter)
    redis.call('SETBIT', filter, FS_KEYS_HEADER_BITS + bits - 1, 0)
    redis.call('BITFIELD', filter, 'SET', 'u32', 0, bits, 'SET', 'u8', 32, hashes, 'SET', 'u8', 40, state)
end

-- Adds a request key; a sale made before the filter existed has none and keeps none.
local function fs_keys_add(filter, key)
    local header = redis.call('BITFIELD', filter, 'GET', 'u32', 0, 'GET', 'u8', 32)
    local bits, hashes = header[1], header[2]
    if bits == 0 then
        return
    end
    local hex = redis.sha1hex(key)
    local h1, h2 = tonumber(string.sub(hex, 1, 8), 16), tonumber(string.sub(hex, 9, 16), 16)
    local set = {}
    for i = 0, hashes - 1 do
        local n = #set
        set[n + 1], set[n + 2], set[n + 3], set[n + 4] = 'SET', 'u1', FS_KEYS_HEADER_BITS + (h1 + i * h2) % bits, 1
    end
    redis.call('BITFIELD', filter, unpack(set))
end
