-- Decides a batch of reservation attempts of one sale (one attempt or many: ADR 0068), one after the other in the
-- order given, each exactly as ActivityLedger.reserve does and as a call of its own would: an attempt sees what the
-- attempts before it moved. For each attempt nothing is written unless every line passes. The accepted attempts'
-- writes are made together after the last attempt, one command per key (ADR 0074); only a buyer's bucket and a
-- segmented SKU's cursor are written as each attempt is judged. Field names follow RedisKeys; fs_* come from
-- lib/ledger.lua.
--
-- KEYS: 1 meta, 2 stock, 3 holdings, 4 reservations, 5 requests (the request index's base key: its entries are in
--       the buckets fs:{a}:requests:<k> meta's requestBuckets names, ADR 0100), 6 outbox, 7 in-flight index,
--       8 the filter of accepted request keys (ADR 0069),
--       9.. the buyers' rate-limit buckets at this sale: one for each attempt that has a bucket, in the attempts'
--       order (ADR 0103: the script counts them, the adapter sends no index)
-- ARGV: 1 activityId (the sale the keys name), then one block per attempt, from its first argument +0 on:
--       +0 reservationId, +1 buyerId, +2 requestId,
--       +3 now epoch seconds, +4 now nano-of-second (both empty: the window is judged by Redis TIME, one clock
--       for every instance), +5 reservedAt packed as the record keeps it (ADR 0070; the adapter packs it, so the
--       script does no date arithmetic; empty: an accepted attempt is stamped with Redis TIME, ADR 0082),
--       +6 lines as "sku:q,sku:q" (judged as the record keeps them: each text decoded once per call, ADR 0083),
--       +7 the bucket's capacity ('' for no bucket), +8 its interval in microseconds, +9 how long its key outlives a
--       full bucket in milliseconds,
--       +10 the shape "m:k:layout:buckets" the next three were computed for: the filter's and the request index's
--       bucket count, 0 for the single hash ('' for none), +11 the request key's word in the filter as BITFIELD's u32
--       offset '#n', +12 its mask (lib/ledger.lua's layout 1), +13 the request entry's bucket ('' for the single
--       hash): the adapter does the hashing, so the script does none when the shape is the call's (ADR 83, ADR 100)
-- Reply: one reply per attempt, in the attempts' order, each
--        {'RATE_LIMITED', microseconds until the next token}
--        | reservedAt packed, alone, for an attempt reserved now (a string, not a table: Redis turns each table of a
--          reply into an array at a cost, and a busy sale answers this one most, ADR 0103)
--        | {'REPLAYED', id, buyerId, requestId, lines, status, reservedAt packed} | {'NOT_READY'}
--        | {'SETTLED', id} when the request's reservation left its record (MySQL has its order: ADR 71)
--        | {'NOT_STARTED', sec, nano} | {'ENDED', sec, nano} | {'PAUSED'} inside the window of a paused sale (ADR 79)
--        | {'UNKNOWN_SKU', sku}
--        | {'LIMIT_EXCEEDED', sku, limit, held} | {'SOLD_OUT', sku} | {'INSUFFICIENT_STOCK', sku, available}
--        | {'REFUSED', reason} when a SKU repeats or a quantity is below 1 (the model refuses such an attempt; the
--          attempts around it are judged as usual);
--        error FS_REFUSED, nothing written, when the arguments do not split into attempts.

local meta, stock, holdings, reservations, requests, outbox = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local inflight = KEYS[7]
local activityId = ARGV[1]
local ATTEMPT_ARGUMENTS = 14

-- Nothing in a batch writes meta or a SKU's segments and limit, so reading them once per batch is the same as
-- reading them once per attempt.
local window
local function saleWindow()
    if not window then
        window = redis.call('HMGET', meta, 'ready', 'startsAtSec', 'startsAtNano', 'endsAtSec', 'endsAtNano', 'paused',
            'requestBuckets')
    end
    return window
end
local skus = {}
local skuOrder = {} -- the SKUs the call named, in order: their units and lines accepted are summed on them
local function skuOf(sku)
    if not skus[sku] then
        local known = redis.call('HMGET', stock, sku .. ':segments', sku .. ':limit')
        if not known[1] then
            return nil
        end
        -- The SKU's counter fields named once per call: text made from a number costs a formatted double.
        local avail = {}
        for s = 1, tonumber(known[1]) do
            avail[s] = sku .. ':avail:' .. s
        end
        skus[sku] = { segments = tonumber(known[1]), limit = tonumber(known[2]), avail = avail,
                      reserved = sku .. ':reserved', held = sku .. ':held', version = sku .. ':version',
                      cursor = sku .. ':cursor', units = 0, lines = 0 }
        skuOrder[#skuOrder + 1] = skus[sku]
    end
    return skus[sku]
end

-- The filter of accepted keys, opened by the first accept of the call: its header does not change within one.
local acceptedKeys
local function filter()
    acceptedKeys = acceptedKeys or fs_keys_open(KEYS[8])
    return acceptedKeys
end

-- What an attempt's +10 names when the adapter hashed its key for this call: the filter's shape and the request
-- index's bucket count, made once per call.
local callShape
local function shapeOfCall()
    callShape = callShape or filter().shape .. ':' .. (saleWindow()[7] or '0')
    return callShape
end

-- ---- what the call moved (ADR 0074) ----
-- An accepted attempt's writes are gathered here and written once, at the end of the call (writeAll). What a later
-- attempt of the call reads goes through the same tables first (its request entry, a holding, a SKU's segments), so
-- each attempt still sees what the attempts before it moved, exactly as a call of its own would have.
local acceptedHere = {}   -- requestField -> the attempt accepted for it in this call
local held = {}           -- holding field -> units the buyer holds, read at most once per call
local counts = {}         -- sku -> units available per segment, read at most once per call
local moves = fs_counters() -- stock field -> units this call adds (negative: takes)
local heldMoved = {}      -- the holding fields this call moved, in order
local accepted = {}       -- the accepted attempts, in order

local function holdingOf(field)
    if not held[field] then
        held[field] = tonumber(redis.call('HGET', holdings, field) or '0')
    end
    return held[field]
end

local function countsOf(sku, segments)
    if not counts[sku] then
        local read = redis.call('HMGET', stock, unpack(skus[sku].avail))
        for s = 1, segments do
            read[s] = tonumber(read[s])
        end
        counts[sku] = read
    end
    return counts[sku]
end

-- One write per key (and one XADD per reservation) for every attempt the call accepted.
local function writeAll()
    if #accepted == 0 then
        return
    end
    local records, entries, inflightIds = {}, {}, {}
    local entryKeys = {}  -- the index's keys the call writes, in the order first written
    for _, a in ipairs(accepted) do
        records[#records + 1], records[#records + 2] = a.id, fs_record_reserved(a.buyer, a.requestId, a.lines,
            a.reservedAt)
        local inKey = entries[a.requestKey]
        if not inKey then
            inKey = {}
            entries[a.requestKey] = inKey
            entryKeys[#entryKeys + 1] = a.requestKey
        end
        inKey[#inKey + 1], inKey[#inKey + 2] = a.requestField, fs_request_value(activityId, a.id, a.requestId)
        inflightIds[#inflightIds + 1], inflightIds[#inflightIds + 2] = a.id, '1'
        if ARGV[a.first + 10] == shapeOfCall() then
            fs_keys_note_word(acceptedKeys, ARGV[a.first + 11], tonumber(ARGV[a.first + 12]))
        else
            fs_keys_bits(acceptedKeys, a.requestField)
        end
    end
    fs_call_all('HSET', reservations, records, 2)
    for _, key in ipairs(entryKeys) do
        fs_call_all('HSET', key, entries[key], 2)
    end
    fs_keys_set(filter())
    -- In flight until MySQL settles it: reconciliation reads this index, never every reservation of the sale.
    fs_call_all('HSET', inflight, inflightIds, 2)
    local holdingValues = {}
    for _, field in ipairs(heldMoved) do
        holdingValues[#holdingValues + 1], holdingValues[#holdingValues + 2] = field, held[field]
    end
    fs_call_all('HSET', holdings, holdingValues, 2)
    for _, sku in ipairs(skuOrder) do
        if sku.lines > 0 then
            fs_counters_add(moves, sku.reserved, sku.units)
            fs_counters_add(moves, sku.held, sku.units)
            fs_counters_add(moves, sku.version, sku.lines)
        end
    end
    fs_counters_write(moves, stock)
    -- The outbox entry is written in the same step, so an accepted reservation can never miss its event. It holds
    -- what the reservation id and the stream do not tell (OutboxEntryDecoder reads this shape and the older one).
    for _, a in ipairs(accepted) do
        redis.call('XADD', outbox, '*', 'reservationId', a.id, 'buyerId', a.buyer, 'requestId', a.requestId,
            'lines', a.lines, 'reservedAt', a.reservedAt)
    end
end

local function isBefore(sec, nano, otherSec, otherNano)
    return sec < otherSec or (sec == otherSec and nano < otherNano)
end

-- Redis TIME, read at most once per call: the call is one atomic step, so every attempt of it (its bucket and its
-- window alike) is judged at the same instant.
local time
local function clock()
    if not time then
        local t = redis.call('TIME')
        time = { sec = tonumber(t[1]), micros = tonumber(t[2]), text = t }
        time.at = time.sec * 1000000 + time.micros
    end
    return time
end

-- The call's texts that stand for numbers (a bucket's figures, a line count, the window) are mostly the same for
-- every attempt: each is read as a number once per call (tonumber parses a double, twice).
-- A line text's lines, decoded and checked once per call: a sale's attempts mostly carry the same few texts. Only
-- figures the same for every attempt of the call (a SKU's, see reserve) are put on a decoded line.
local decoded = {}
local function linesOf(text)
    local known = decoded[text]
    if not known then
        local lines, why = fs_decode_lines(text)
        known = { lines = lines, why = why }
        decoded[text] = known
    end
    return known.lines, known.why
end

local numbers = {}
local function number(text)
    local n = numbers[text]
    if n == nil then
        n = tonumber(text)
        numbers[text] = n
    end
    return n
end

-- ---- accept: every line of the attempt passed; the one place that moves a reservation's units ----
-- A segmented SKU is taken from a rotating first segment onwards until the quantity is covered, so the whole SKU's
-- stock always counts. The moves are the call's (see writeAll); every invariant of lib/ledger.lua holds once written:
-- <sku>:held moves with each holding, and <sku>:version goes up once per line, as a call per attempt did.
local function accept(a, lines, firstField)
    for i, line in ipairs(lines) do
        local rest, first = line.quantity, 0
        if line.segments > 1 then
            first = redis.call('HINCRBY', stock, line.fields.cursor, 1) % line.segments
        end
        for step = 0, line.segments - 1 do
            if rest == 0 then
                break
            end
            local s = (first + step) % line.segments + 1
            local take = math.min(rest, line.counts[s])
            if take > 0 then
                line.counts[s] = line.counts[s] - take
                fs_counters_add(moves, line.fields.avail[s], -take)
                rest = rest - take
            end
        end
        local field = i == 1 and firstField or a.buyer .. ':' .. line.sku
        held[field] = held[field] + line.quantity
        heldMoved[#heldMoved + 1] = field
        -- :reserved and :held by the units, :version by one: summed on the SKU, moved once per call (writeAll).
        line.fields.units, line.fields.lines = line.fields.units + line.quantity, line.fields.lines + 1
    end
    if a.reservedAt == '' then
        -- The instant the buyer is answered, by the clock the window was judged by: the payment deadline counts
        -- from it (ADR 0082).
        local time = clock()
        time.packed = time.packed or fs_base36(time.sec) .. '.' .. fs_base36(time.micros * 1000)
        a.reservedAt = time.packed
    end
    accepted[#accepted + 1] = a
    acceptedHere[a.requestField] = a
    return a.reservedAt
end
-- ---- end of accept ----

-- The reply for an attempt at (nowSec, nowNano) when the sale is not warmed up, outside its window [startsAt, endsAt)
-- or paused (ADR 79); nil when it is open. Instants compare as (seconds, nanos) to stay exact.
local function saleShut(nowSec, nowNano)
    local w = saleWindow()
    if w[1] ~= '1' then
        return { 'NOT_READY' }
    end
    if isBefore(nowSec, nowNano, number(w[2]), number(w[3])) then
        return { 'NOT_STARTED', w[2], w[3] }
    end
    if not isBefore(nowSec, nowNano, number(w[4]), number(w[5])) then
        return { 'ENDED', w[4], w[5] }
    end
    if w[6] == '1' then
        return { 'PAUSED' }
    end
    return nil
end
-- saleShut at the call's Redis TIME, the same for every attempt judged by it (false: open); nil until first asked.
local saleShutNow

-- One attempt, judged in the steps of ActivityLedger.reserve; moves only through accept.
local function reserve(a)
    -- 1. The buyer sent this requestId before: answer with the reservation as it stands now. A replay comes before
    -- the rate limit and takes no token (ADR 0068): a buyer retrying after a lost answer gets its reservation back.
    local here = acceptedHere[a.requestField]
    if here then
        return { 'REPLAYED', here.id, here.buyer, here.requestId, here.lines, 'RESERVED', here.reservedAt }
    end
    local buckets = saleWindow()[7]
    if buckets and ARGV[a.first + 10] == shapeOfCall() then
        a.requestKey = requests .. ':' .. ARGV[a.first + 13]
    else
        a.requestKey = fs_request_key(requests, buckets, a.requestField)
    end
    local entry = redis.call('HGET', a.requestKey, a.requestField)
    if entry then
        local earlier = fs_request_id(activityId, a.requestId, entry)
        local r = fs_record_read(reservations, earlier)
        if not r then
            return { 'SETTLED', earlier }
        end
        return { 'REPLAYED', earlier, r.buyer, r.requestId, r.lines, r.status, r.reservedAt }
    end

    -- 2. The buyer's rate limit (ADR 0060): an attempt without a token moves nothing.
    local first = a.first
    if a.bucketKey then
        local taken, wait = fs_bucket_take(a.bucketKey, number(ARGV[first + 7]), number(ARGV[first + 8]),
            number(ARGV[first + 9]), clock().at)
        if not taken then
            return { 'RATE_LIMITED', wait }
        end
    end

    -- 3. Warmed up, inside the window, not paused: judged once per call for the attempts judged by Redis TIME.
    local shut
    if ARGV[first + 3] == '' then
        if saleShutNow == nil then
            saleShutNow = saleShut(clock().sec, clock().micros * 1000) or false
        end
        shut = saleShutNow
    else
        shut = saleShut(number(ARGV[first + 3]), number(ARGV[first + 4]))
    end
    if shut then
        return shut
    end

    -- 4. Every SKU must belong to the sale before any line is judged on limit or stock.
    local lines, why = linesOf(a.lines)
    if not lines then
        return { 'REFUSED', why }
    end
    for _, line in ipairs(lines) do
        local sku = skuOf(line.sku)
        if not sku then
            return { 'UNKNOWN_SKU', line.sku }
        end
        line.segments, line.limit, line.fields = sku.segments, sku.limit, sku
    end

    -- 5. Line by line: the buyer's limit first, then the stock summed over the SKU's segments.
    local firstField
    for i, line in ipairs(lines) do
        local field = a.buyer .. ':' .. line.sku
        firstField = firstField or field
        local has = holdingOf(field)
        if has + line.quantity > line.limit then
            return { 'LIMIT_EXCEEDED', line.sku, line.limit, has }
        end
        line.counts = countsOf(line.sku, line.segments)
        local available = 0
        for s = 1, line.segments do
            available = available + line.counts[s]
        end
        if available == 0 then
            return { 'SOLD_OUT', line.sku }
        end
        if available < line.quantity then
            return { 'INSUFFICIENT_STOCK', line.sku, available }
        end
    end

    -- 6. Every line passed.
    return accept(a, lines, firstField)
end

-- The attempts as ARGV blocks; the whole call is refused, before anything is judged, when they do not fit.
if #ARGV < 2 then
    return fs_refuse('no attempt')
end
if (#ARGV - 1) % ATTEMPT_ARGUMENTS ~= 0 then
    return fs_refuse('attempt ' .. math.floor((#ARGV - 1) / ATTEMPT_ARGUMENTS) + 1 .. ' does not fit the arguments')
end
local attempts = {}
local bucketKeys = 8 -- KEYS before the first bucket key
for first = 2, #ARGV, ATTEMPT_ARGUMENTS do
    -- Only what the attempt's judging and writing keep using is copied: its other arguments are read from ARGV at
    -- `first` when needed (every table field is an allocation the call pays for, ADR 0089).
    local buyer, requestId = ARGV[first + 1], ARGV[first + 2]
    local a = { first = first, id = ARGV[first], buyer = buyer, requestId = requestId,
                requestField = buyer .. ':' .. requestId, reservedAt = ARGV[first + 5], lines = ARGV[first + 6] }
    if ARGV[first + 7] ~= '' then
        bucketKeys = bucketKeys + 1
        a.bucketKey = KEYS[bucketKeys]
        if not a.bucketKey then
            return fs_refuse('attempt ' .. (#attempts + 1) .. ' names no bucket key')
        end
    end
    attempts[#attempts + 1] = a
end

local replies = {}
for i, a in ipairs(attempts) do
    replies[i] = reserve(a)
end
writeAll()
return replies
