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
--       9.. the buyers' rate-limit buckets at this sale, one per attempt in the attempts' order, when the call's
--       attempts have buckets (none otherwise)
-- ARGV: the call's header, the same for every attempt of the call (ADR 0105: the adapter puts only attempts that
--       share it in one call, so each figure crosses the wire and becomes a Lua string once per call):
--       1 the prefix of the attempts' ids, up to their last dot: the activity id, or '<a>.<k>of<n>' for slice k of a
--       sale of n slices (ADR 109); the request index keeps only what follows it (fs_request_value),
--       2 the clock: '' for Redis TIME, which judges the window once per call and stamps an accepted attempt (one
--       clock for every instance, ADR 0082); 'attempt' for each attempt's own instants (tests that move the clock),
--       3 the buyers' bucket capacity ('' for no bucket), 4 its interval in microseconds, 5 how long a bucket's key
--       outlives a full bucket in milliseconds,
--       6 the shape "m:k:layout:buckets" the attempts' +4..+6 were computed for: the filter's and the request index's
--       bucket count, 0 for the single hash ('' for none: the script hashes),
--       7 the sale's slice count the attempts' ids name (ADR 109; '1' for a sale of one slice), compared once per
--       call with meta's (absent: 1): an id made for another cut of the sale is judged nowhere;
--       then one block per attempt, from its first argument +0 on:
--       +0 reservationId, +1 buyerId, +2 requestId,
--       +3 lines as "sku:q,sku:q" (judged as the record keeps them: each text decoded once per call, ADR 0083),
--       +4 the request key's word in the filter as BITFIELD's u32 offset '#n', +5 its mask (lib/ledger.lua's layout
--       1), +6 the request entry's bucket ('' for the single hash): the adapter does the hashing, so the script does
--       none when the shape is the call's (ADR 83, ADR 100),
--       and with the attempts' clock: +7 now epoch seconds, +8 now nano-of-second, +9 reservedAt packed as the record
--       keeps it (ADR 0070; the adapter packs it, so the script does no date arithmetic)
-- Reply: {'SLICES', meta's slice count} for every attempt when the count in ARGV 7 is not meta's (nothing judged,
--        nothing moved); else one reply per attempt, in the attempts' order, each
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
local idPrefix = ARGV[1]
local HEADER_ARGUMENTS = 7
local attemptsClock = ARGV[2] == 'attempt'
local ATTEMPT_ARGUMENTS = attemptsClock and 10 or 7

-- Nothing in a batch writes meta or a SKU's segments and limit, so reading them once per batch is the same as
-- reading them once per attempt. The slice count comes in the same read (ADR 109).
local window
local function saleWindow()
    if not window then
        window = redis.call('HMGET', meta, 'ready', 'startsAtSec', 'startsAtNano', 'endsAtSec', 'endsAtNano', 'paused',
            'requestBuckets', 'slices')
    end
    return window
end
local skus = {}
local skuOrder = {} -- the SKUs the call named, in order: their units and lines accepted are summed on them
local counts = {}   -- sku -> units available per segment, read once per call and taken from as attempts accept
-- A SKU's figures, read once per call in one HMGET: its segments and limit, the counters an accept moves (reserved,
-- held, version) and its first segment's units; a segmented SKU's other segments in a second (ADR 0108). The call
-- then writes every counter it moved with one HSET of the values it reached (writeAll): the script is one atomic step,
-- so what it read is what the fields hold until it writes, and a value written is the field's plus the call's moves.
local function skuOf(sku)
    if not skus[sku] then
        local avail1 = sku .. ':avail:1'
        local known = redis.call('HMGET', stock, sku .. ':segments', sku .. ':limit', sku .. ':reserved',
            sku .. ':held', sku .. ':version', avail1)
        if not known[1] then
            return nil
        end
        -- The SKU's counter fields named once per call: text made from a number costs a formatted double.
        local segments = tonumber(known[1])
        local avail, units = { avail1 }, { tonumber(known[6] or '0') }
        for s = 2, segments do
            avail[s] = sku .. ':avail:' .. s
        end
        if segments > 1 then
            local rest = redis.call('HMGET', stock, unpack(avail, 2))
            for s = 2, segments do
                units[s] = tonumber(rest[s - 1] or '0')
            end
        end
        counts[sku] = units
        skus[sku] = { segments = segments, limit = tonumber(known[2]), avail = avail,
                      reserved = tonumber(known[3] or '0'), held = tonumber(known[4] or '0'),
                      version = tonumber(known[5] or '0'), name = sku, cursor = sku .. ':cursor', units = 0, lines = 0 }
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

-- Whether the adapter hashed the attempts' keys for the shape the sale has now: the filter's shape and the request
-- index's bucket count; judged once per call.
local hashedHere
local function hashedByAdapter()
    if hashedHere == nil then
        hashedHere = ARGV[6] ~= '' and ARGV[6] == filter().shape .. ':' .. (saleWindow()[7] or '0')
    end
    return hashedHere
end

-- ---- what the call moved (ADR 0074) ----
-- An accepted attempt's writes are gathered here and written once, at the end of the call (writeAll). What a later
-- attempt of the call reads goes through the same tables first (its request entry, a holding, a SKU's segments), so
-- each attempt still sees what the attempts before it moved, exactly as a call of its own would have.
local acceptedHere = {}   -- requestField -> the attempt accepted for it in this call
local held = {}           -- holding field -> units the buyer holds, read at most once per call
local heldMoved = {}      -- the holding fields this call moved, in order
local accepted = {}       -- the accepted attempts, in order

local function holdingOf(field)
    if not held[field] then
        held[field] = tonumber(redis.call('HGET', holdings, field) or '0')
    end
    return held[field]
end

-- One write per key (and one outbox entry) for every attempt the call accepted.
local function writeAll()
    if #accepted == 0 then
        return
    end
    local records, entries, inflightIds = {}, {}, {}
    local entryKeys = {}  -- the index's keys the call writes, in the order first written
    for _, a in ipairs(accepted) do
        a.record = fs_record_reserved(a.buyer, a.requestId, a.lines, a.reservedAt)
        records[#records + 1], records[#records + 2] = a.id, a.record
        local inKey = entries[a.requestKey]
        if not inKey then
            inKey = {}
            entries[a.requestKey] = inKey
            entryKeys[#entryKeys + 1] = a.requestKey
        end
        inKey[#inKey + 1], inKey[#inKey + 2] = a.requestField, fs_request_value(idPrefix, a.id, a.requestId)
        inflightIds[#inflightIds + 1], inflightIds[#inflightIds + 2] = a.id, '1'
        if hashedByAdapter() then
            fs_keys_note_word(filter(), ARGV[a.first + 4], tonumber(ARGV[a.first + 5]))
        else
            fs_keys_bits(filter(), a.requestField)
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
    -- Every counter of every SKU the call moved, at the value it reached, in one write (ADR 0108): a SKU's units
    -- available per segment as its attempts took them, :reserved and :held by the units, :version by the lines.
    local values = {}
    for _, sku in ipairs(skuOrder) do
        if sku.lines > 0 then
            local units = counts[sku.name]
            for s = 1, sku.segments do
                values[#values + 1], values[#values + 2] = sku.avail[s], units[s]
            end
            values[#values + 1], values[#values + 2] = sku.name .. ':reserved', sku.reserved + sku.units
            values[#values + 1], values[#values + 2] = sku.name .. ':held', sku.held + sku.units
            values[#values + 1], values[#values + 2] = sku.name .. ':version', sku.version + sku.lines
        end
    end
    fs_call_all('HSET', stock, values, 2)
    -- The outbox entry is written in the same step, so an accepted reservation can never miss its event. One entry
    -- for the call's accepted reservations, each id a field whose value is its record as written above (ADR 0107:
    -- one entry for Redis to add, hand the relays and acknowledge per call, not per reservation; ids always hold a
    -- dot, so no id is one of the older shapes' field names, which OutboxEntryDecoder still reads). The same pairs as
    -- the records hash's write, so the list is built once.
    fs_outbox_add(outbox, records)
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

-- Redis TIME packed as the record keeps it, made by the first attempt the call accepts.
local packedNow
local function packNow()
    local time = clock()
    packedNow = fs_base36(time.sec) .. '.' .. fs_base36(time.micros * 1000)
    return packedNow
end

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
        -- from it (ADR 0082). Packed once per call: every attempt of it is answered at the same instant.
        a.reservedAt = packedNow or packNow()
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
    if isBefore(nowSec, nowNano, tonumber(w[2]), tonumber(w[3])) then
        return { 'NOT_STARTED', w[2], w[3] }
    end
    if not isBefore(nowSec, nowNano, tonumber(w[4]), tonumber(w[5])) then
        return { 'ENDED', w[4], w[5] }
    end
    if w[6] == '1' then
        return { 'PAUSED' }
    end
    return nil
end
-- The buyers' bucket figures, read once per call from the header (nil: the call's attempts have no bucket).
local bucket

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
    if buckets and hashedByAdapter() then
        a.requestKey = requests .. ':' .. ARGV[a.first + 6]
    else
        a.requestKey = fs_request_key(requests, buckets, a.requestField)
    end
    local entry = redis.call('HGET', a.requestKey, a.requestField)
    if entry then
        local earlier = fs_request_id(idPrefix, a.requestId, entry)
        local r = fs_record_read(reservations, earlier)
        if not r then
            return { 'SETTLED', earlier }
        end
        return { 'REPLAYED', earlier, r.buyer, r.requestId, r.lines, r.status, r.reservedAt }
    end

    -- 2. The buyer's rate limit (ADR 0060): an attempt without a token moves nothing.
    if a.bucketKey then
        local taken, wait = fs_bucket_take(a.bucketKey, bucket.capacity, bucket.interval, bucket.keep, clock().at)
        if not taken then
            return { 'RATE_LIMITED', wait }
        end
    end

    -- 3. Warmed up, inside the window, not paused: judged once per call by Redis TIME, else at the attempt's instant.
    local shut
    if attemptsClock then
        shut = saleShut(tonumber(ARGV[a.first + 7]), tonumber(ARGV[a.first + 8]))
    else
        if saleShutNow == nil then
            saleShutNow = saleShut(clock().sec, clock().micros * 1000) or false
        end
        shut = saleShutNow
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
        line.counts = counts[line.sku]
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

-- The header and the attempts as ARGV blocks; the whole call is refused, before anything is judged, when they do not
-- fit.
if #ARGV <= HEADER_ARGUMENTS then
    return fs_refuse('no attempt')
end
if ARGV[2] ~= '' and not attemptsClock then
    return fs_refuse('no clock ' .. ARGV[2])
end
if (#ARGV - HEADER_ARGUMENTS) % ATTEMPT_ARGUMENTS ~= 0 then
    return fs_refuse('attempt ' .. math.floor((#ARGV - HEADER_ARGUMENTS) / ATTEMPT_ARGUMENTS) + 1
        .. ' does not fit the arguments')
end
if ARGV[3] ~= '' then
    bucket = { capacity = tonumber(ARGV[3]), interval = tonumber(ARGV[4]), keep = tonumber(ARGV[5]) }
end
local attempts = {}
for first = HEADER_ARGUMENTS + 1, #ARGV, ATTEMPT_ARGUMENTS do
    -- Only what the attempt's judging and writing keep using is copied: its other arguments are read from ARGV at
    -- `first` when needed (every table field is an allocation the call pays for, ADR 0089).
    local buyer, requestId = ARGV[first + 1], ARGV[first + 2]
    local a = { first = first, id = ARGV[first], buyer = buyer, requestId = requestId,
                requestField = buyer .. ':' .. requestId, reservedAt = attemptsClock and ARGV[first + 9] or '',
                lines = ARGV[first + 3] }
    if bucket then
        a.bucketKey = KEYS[8 + #attempts + 1]
        if not a.bucketKey then
            return fs_refuse('attempt ' .. (#attempts + 1) .. ' names no bucket key')
        end
    end
    attempts[#attempts + 1] = a
end

local replies = {}
-- Ids made for another slice count than this slice was loaded with are judged nowhere (ADR 109): slice 0's keys are
-- the same for every count, so such an id would otherwise be judged on a slice of another cut of the sale. The
-- caller learns the count.
local slices = saleWindow()[8] or '1'
if ARGV[7] ~= slices then
    for i = 1, #attempts do
        replies[i] = { 'SLICES', slices }
    end
    return replies
end
for i, a in ipairs(attempts) do
    replies[i] = reserve(a)
end
writeAll()
return replies
