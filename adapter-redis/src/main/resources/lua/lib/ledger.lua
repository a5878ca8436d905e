-- Shared by every script: LuaLibrary puts in front of each script the definitions of this file it uses (directly or
-- through one another, in this file's order) before its SHA is taken, so one copy of the rules serves them all and a
-- script pays only for what it calls (ADR 83). One file by topic, each topic under a "-- ----" heading, in an order
-- where every definition comes after those it uses (ADR 96): calls and counters; a SKU's fields, versions and lines;
-- moves of reservations' units; the outbox; rate limits; reservation records and their transitions; the filter of
-- accepted request keys; the request index, settling and restoring. Invariants every script keeps:
--   * no counter (<sku>:total, :reserved, :sold, :avail:<i>, a holding) is ever taken below zero: a script checks
--     every move first and refuses, writing nothing, with fs_refuse;
--   * every call that changes a SKU's ledger, a holding of it, or the status of a reservation of it bumps
--     <sku>:version (fs_bump_version; fs_moves_add by one per line it moves, summed per call); a repair applies
--     only while the version it read is unchanged;
--   * meta's loadId changes with every warm-up and rebuild, so a version read before a loss never matches after it;
--   * <sku>:held is the sum of every buyer's holding of the SKU, moved with each holding (fs_add_holding,
--     fs_moves_write), so reconciliation compares one figure per SKU and reads the holdings only when it disagrees;
--   * the in-flight index (fs:{a}:inflight, reservation id -> '1') lists every reservation MySQL has not settled yet:
--     added by reserve.lua, removed when a script settles it (confirm, settle_batch, a release that is not the buyer's)
--     or when reconciliation finds it settled (reconcile_settled.lua). Reconciliation pages over it, not over every
--     reservation of the sale (ADR 43);
--   * the filter of accepted request keys (fs:{a}:keys) holds every key of the request index while it is usable: a
--     script that adds an index entry adds the key with fs_keys_add in the same step (ADR 69).

-- ---- Calls and counters ----

-- An error reply the adapter turns into an exception: the caller asked for a move the model refuses.
local function fs_refuse(why)
    return redis.error_reply('FS_REFUSED ' .. why)
end

local function fs_number(value)
    return tonumber(value or '0')
end

-- Lua's unpack takes at most about 8,000 values: a write of many fields goes in calls of at most this many arguments.
local FS_ARGUMENTS_PER_CALL = 4000

-- redis.call(command, key, args...) for a list of any length, in calls of whole groups (group: the arguments that go
-- together, e.g. 2 for a field and its value), each at most FS_ARGUMENTS_PER_CALL long. Nothing for an empty list.
local function fs_call_all(command, key, args, group)
    local step = FS_ARGUMENTS_PER_CALL - FS_ARGUMENTS_PER_CALL % group
    for first = 1, #args, step do
        redis.call(command, key, unpack(args, first, math.min(#args, first + step - 1)))
    end
end

-- fs_call_all for a command that reads one value per argument (HMGET): the values of every call, in order (false for
-- a missing field, as redis.call gives it).
local function fs_call_read_all(command, key, args)
    local values = {}
    for first = 1, #args, FS_ARGUMENTS_PER_CALL do
        local read = redis.call(command, key, unpack(args, first, math.min(#args, first + FS_ARGUMENTS_PER_CALL - 1)))
        for i = 1, #read do
            values[first + i - 1] = read[i]
        end
    end
    return values
end

-- Moves summed per field over a call, each written with one HINCRBY at its end (fs_counters_write), in the order the
-- fields were first moved.
local function fs_counters()
    return { units = {}, order = {} }
end

local function fs_counters_add(counters, field, units)
    if not counters.units[field] then
        counters.units[field] = 0
        counters.order[#counters.order + 1] = field
    end
    counters.units[field] = counters.units[field] + units
end

local function fs_counters_write(counters, key)
    for _, field in ipairs(counters.order) do
        redis.call('HINCRBY', key, field, counters.units[field])
    end
end

-- ---- A SKU's fields, versions and lines ----

-- A SKU's field in the stock hash, <sku>:<figure> as RedisKeys.stockField names it (LuaLibraryNamesTest checks it):
-- 'reserved', 'sold', 'held', 'version'; 'avail' names the first segment of what is available, <sku>:avail:1, where
-- units that come back go. One concatenation: a script that moves a SKU once makes each name once.
local function fs_stock_field(sku, figure)
    if figure == 'avail' then
        return sku .. ':avail:1'
    end
    return sku .. ':' .. figure
end

-- The stock fields a move touches (fs_stock_field), made once per script call and SKU: a batch moves the same few SKUs
-- many times.
local FS_SKU_FIELDS = {}
local function fs_sku_fields(sku)
    local f = FS_SKU_FIELDS[sku]
    if not f then
        f = { reserved = fs_stock_field(sku, 'reserved'), sold = fs_stock_field(sku, 'sold'),
              avail = fs_stock_field(sku, 'avail'), held = fs_stock_field(sku, 'held'),
              version = fs_stock_field(sku, 'version') }
        FS_SKU_FIELDS[sku] = f
    end
    return f
end

local function fs_bump_version(stock, sku)
    redis.call('HINCRBY', stock, fs_stock_field(sku, 'version'), 1)
end

-- The version a repair compares: the load it belongs to and the SKU's move count within that load.
local function fs_version(meta, stock, sku)
    local version = redis.call('HGET', stock, fs_stock_field(sku, 'version'))
    return (redis.call('HGET', meta, 'loadId') or '-') .. '/' .. (version or '0')
end

-- The SKU's segment count when the sale (or the slice) is loaded and has the SKU; else nil and the answer that says
-- why: {'NOT_LOADED'} or {'UNKNOWN_SKU'}.
local function fs_loaded_segments(meta, stock, sku)
    if redis.call('HGET', meta, 'ready') ~= '1' then
        return nil, { 'NOT_LOADED' }
    end
    local segments = tonumber(redis.call('HGET', stock, sku .. ':segments'))
    if not segments then
        return nil, { 'UNKNOWN_SKU' }
    end
    return segments
end

-- A stock transfer's ARGV (ADR 109) checked: nil when the id has one spelling (no leading zero, so a repeat finds the
-- record of its first call) and the units are a whole number below 10^15, else the refusal to return.
local function fs_transfer_refusal(transfer, units)
    if transfer ~= '0' and not string.match(transfer or '', '^[1-9]%d*$') then
        return fs_refuse('transfer id is not a whole number: ' .. tostring(transfer))
    end
    if not string.match(units or '', '^%d+$') or #units > 15 then
        return fs_refuse('units are not a whole number below 10^15: ' .. tostring(units))
    end
    return nil
end

-- What a stock transfer keeps in the stock hash of each slice it moved (ADR 109): <sku>:xout:<id> in the source (the
-- units its take gave), <sku>:xin:<id> in the target (the units its credit added), as RedisKeys.transferOutField and
-- transferInField name them (LuaLibraryNamesTest checks it). Records of a transfer's answer, never a figure of the SKU.
local FS_TRANSFER_OUT = ':xout:'
local FS_TRANSFER_IN = ':xin:'

-- The stock hash as HGETALL gives it (field, value, ...), without the records stock transfers keep there
-- (FS_TRANSFER_OUT, FS_TRANSFER_IN): what reconciliation reads of a slice's ledgers. A transfer's record is no figure
-- of its SKU and one more comes with every transfer; left in, each look would carry them all to the adapter. Ids never
-- hold ':', so no other field contains either infix.
local function fs_stock_without_transfers(stock)
    local all, kept = redis.call('HGETALL', stock), {}
    for i = 1, #all, 2 do
        local field = all[i]
        if not (string.find(field, FS_TRANSFER_OUT, 1, true) or string.find(field, FS_TRANSFER_IN, 1, true)) then
            kept[#kept + 1] = field
            kept[#kept + 1] = all[i + 1]
        end
    end
    return kept
end

-- A SKU's available units, segment by segment (<sku>:avail:1 .. <sku>:avail:<segments>, read in one HMGET), and
-- their sum.
local function fs_avail_read(stock, sku, segments)
    local fields = {}
    for s = 1, segments do
        fields[s] = sku .. ':avail:' .. s
    end
    local values = redis.call('HMGET', stock, unpack(fields))
    local counts, available = {}, 0
    for s = 1, segments do
        counts[s] = tonumber(values[s] or '0')
        available = available + counts[s]
    end
    return counts, available
end

-- Adds units to a SKU's available, spread evenly over its segments, the first (units mod segments) one more.
local function fs_avail_spread(stock, sku, segments, units)
    local share, extra = math.floor(units / segments), units % segments
    for s = 1, segments do
        local add = share + (s <= extra and 1 or 0)
        if add > 0 then
            redis.call('HINCRBY', stock, sku .. ':avail:' .. s, add)
        end
    end
end

-- Takes units from a SKU's segments, the first first, none below zero: counts as fs_avail_read gave them, units at
-- most their sum.
local function fs_avail_take(stock, sku, counts, units)
    local rest = units
    for s = 1, #counts do
        local take = math.min(rest, counts[s])
        if take > 0 then
            redis.call('HINCRBY', stock, sku .. ':avail:' .. s, -take)
            rest = rest - take
        end
    end
end

-- A fresh load id from the server's clock, so that no caller can hand in a stale one.
local function fs_new_load_id()
    local now = redis.call('TIME')
    return now[1] .. '.' .. now[2]
end

-- Lines as { { sku = s, quantity = q } ... } from (sku, quantity) pairs in args from index first to last (default: the
-- end); nil and the reason when a SKU repeats or a quantity is not a whole number of at least 1.
local function fs_pairs_to_lines(args, first, last)
    local lines, seen = {}, {}
    for i = first, last or #args, 2 do
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

-- Adds units to a buyer's holding of a SKU and to the SKU's sum of holdings.
local function fs_add_holding(stock, holdings, buyer, sku, quantity)
    redis.call('HINCRBY', holdings, buyer .. ':' .. sku, quantity)
    redis.call('HINCRBY', stock, fs_stock_field(sku, 'held'), quantity)
end

-- ---- Moves of reservations' units: what confirm, release, fail, restore and the batch scripts share ----

-- A transition moves each line's units out of the SKU's figure `from` into `to` (figures as fs_stock_field names them:
-- 'reserved', 'sold', 'avail'; no `from`: none move, as a failure that keeps its units), and units that become
-- available leave the buyer's holding and the SKU's sum of holdings too; the SKU's version moves by one per line
-- either way.
-- Every move is checked before any is written. A one-reservation script moves its lines directly (fs_lines_short,
-- fs_lines_move), naming each field as it goes; a batch sums its moves per counter first (fs_moves) and names each
-- SKU's fields once (fs_sku_fields): the tables that takes cost a one-reservation call more than they save it.

-- nil when every line's units can leave `from` (and, when they become available, the buyer's holding), else the
-- first shortfall as the reason.
local function fs_lines_short(stock, holdings, buyer, lines, from, to)
    if from then
        for _, line in ipairs(lines) do
            local field = fs_stock_field(line.sku, from)
            local has = fs_number(redis.call('HGET', stock, field))
            if has < line.quantity then
                return field .. ' holds ' .. has .. ', cannot take ' .. line.quantity
            end
        end
    end
    if to == 'avail' then
        for _, line in ipairs(lines) do
            local field = buyer .. ':' .. line.sku
            local has = fs_number(redis.call('HGET', holdings, field))
            if has < line.quantity then
                return field .. ' holds ' .. has .. ', cannot take ' .. line.quantity
            end
        end
    end
    return nil
end

-- Moves every line's units (checked first with fs_lines_short), a few commands per line.
local function fs_lines_move(stock, holdings, buyer, lines, from, to)
    for _, line in ipairs(lines) do
        local sku, quantity = line.sku, line.quantity
        if from then
            redis.call('HINCRBY', stock, fs_stock_field(sku, from), -quantity)
            redis.call('HINCRBY', stock, fs_stock_field(sku, to), quantity)
        end
        if to == 'avail' then
            local field = buyer .. ':' .. sku
            if redis.call('HINCRBY', holdings, field, -quantity) == 0 then
                redis.call('HDEL', holdings, field)
            end
            redis.call('HINCRBY', stock, fs_stock_field(sku, 'held'), -quantity)
        end
        redis.call('HINCRBY', stock, fs_stock_field(sku, 'version'), 1)
    end
end

-- A batch's moves, summed per counter: what they take from each (checked by fs_moves_short before anything is
-- written) and what they add to it (written by fs_moves_write, one HINCRBY per counter), in the order first moved.
local function fs_moves()
    return { taken = fs_counters(), stock = fs_counters(), holdings = fs_counters() }
end

-- Adds the moves of n reservations of the same lines (of one buyer, when their units become available).
local function fs_moves_add(moves, lines, from, to, n, buyer)
    for _, line in ipairs(lines) do
        local f, units = fs_sku_fields(line.sku), line.quantity * n
        fs_counters_add(moves.taken, f[from], units)
        fs_counters_add(moves.stock, f[from], -units)
        fs_counters_add(moves.stock, f[to], units)
        if to == 'avail' then
            fs_counters_add(moves.holdings, buyer .. ':' .. line.sku, units)
            fs_counters_add(moves.stock, f.held, -units)
        end
        fs_counters_add(moves.stock, f.version, n)
    end
end

-- nil when every field of hash holds at least what counters take from it, else the first one short, as the reason.
local function fs_short_of_sums(hash, counters)
    for _, field in ipairs(counters.order) do
        local has, quantity = fs_number(redis.call('HGET', hash, field)), counters.units[field]
        if has < quantity then
            return field .. ' holds ' .. has .. ', cannot take ' .. quantity
        end
    end
    return nil
end

-- nil when no counter the moves take from would go below zero, else the reason: the caller refuses, writing nothing.
local function fs_moves_short(moves, stock, holdings)
    return fs_short_of_sums(stock, moves.taken) or fs_short_of_sums(holdings, moves.holdings)
end

-- Writes the moves: each stock counter once, each holding down once and removed at zero.
local function fs_moves_write(moves, stock, holdings)
    fs_counters_write(moves.stock, stock)
    local taken = moves.holdings
    for _, field in ipairs(taken.order) do
        if redis.call('HINCRBY', holdings, field, -taken.units[field]) == 0 then
            redis.call('HDEL', holdings, field)
        end
    end
end

-- ---- The outbox ----

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

-- Appends `fields`, reservation ids alternating with their records as accepted, to the outbox as one entry (ADR 0107:
-- one entry a reserve call; a reservation id always holds a dot, so it is never a field name of the older shapes),
-- or as several when they are more than one unpack takes. Nothing for an empty list.
local function fs_outbox_add(outbox, fields)
    for first = 1, #fields, FS_ARGUMENTS_PER_CALL do
        redis.call('XADD', outbox, '*', unpack(fields, first, math.min(#fields, first + FS_ARGUMENTS_PER_CALL - 1)))
    end
end

-- Adds the reservation ids an outbox entry's fields (a flat list of names and values) announce to `into`, whatever
-- shape wrote it: every name of an entry of ADR 0107, the `reservationId` value of the older ones.
local function fs_outbox_entry_ids(body, into)
    local older = false
    for i = 1, #body, 2 do
        if body[i] == 'reservationId' then
            into[#into + 1] = body[i + 1]
            older = true
        end
    end
    if not older then
        for i = 1, #body, 2 do
            if string.find(body[i], '.', 1, true) then
                into[#into + 1] = body[i]
            end
        end
    end
    return into
end

-- ---- Rate limits ----

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
    -- Whole numbers as '%d' text: a Lua number handed to redis.call is formatted as a double, which costs more.
    redis.call('SET', key, string.format('%d', after), 'PX', string.format('%d', math.ceil((after - now) / 1000) + keep))
    return true, math.floor((capacity * interval - (after - now)) / interval + 1e-9)
end

-- Redis TIME in microseconds.
local function fs_now_micros()
    local time = redis.call('TIME')
    return tonumber(time[1]) * 1000000 + tonumber(time[2])
end

-- ---- Reservation records and their transitions ----

-- Reservation records (ADR 70): one field <id> of fs:{a}:reservations, its parts joined by FS_RECORD_SEPARATOR ('|'),
-- which no id, line, position or instant ever holds (a reservation MySQL ordered has none, and one restored after it
-- was ordered only its status letter: ADR 71, see fs_settle and fs_restore_find):
--   status letter | buyer | requestId | lines "sku:q,sku:q" | reservedAt | pos | cancelledAt | redrivenAt
-- pos is where the broker stored the event ("<partition>:<offset>"), cancelledAt when the buyer cancelled it while
-- RESERVED, redrivenAt the epoch millis of its last re-drive; each '' when absent, and trailing empty parts are left
-- out. An instant is packed as base-36 epoch seconds '.' base-36 nano-of-second (fs_instant_pack). The adapter's
-- ReservationRecord reads and writes the same text, with the same separator and status letters. The separator's byte
-- and the patterns that read a record spell it out (made from it at run time, every call would pay for the text);
-- LuaLibraryNamesTest checks they are made of FS_RECORD_SEPARATOR, and that it is ReservationRecord's: a fresh RESERVED
-- record's letter and separator; one part captured with the separator after it; the lines (the fourth part); exactly
-- five parts.
local FS_RECORD_SEPARATOR = '|'
local FS_RECORD_SEPARATOR_BYTE = 124
local FS_RECORD_RESERVED = 'R|'
local FS_RECORD_NEXT_PART = '([^|]*)|'
local FS_RECORD_LINES = '^[^|]*|[^|]*|[^|]*|([^|]*)'
local FS_RECORD_FIVE_PARTS = '^[^|]*|[^|]*|[^|]*|[^|]*|[^|]*$'
local FS_STATUS_LETTER = { RESERVED = 'R', ORDERED = 'O', PAID = 'P', CANCELLED = 'C', EXPIRED = 'E', FAILED = 'F' }
local FS_LETTER_STATUS = { R = 'RESERVED', O = 'ORDERED', P = 'PAID', C = 'CANCELLED', E = 'EXPIRED', F = 'FAILED' }
local FS_BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'

-- A whole number of at least 0 in base 36, lower case (as Java's Long.toString(n, 36)).
local function fs_base36(n)
    local digits = ''
    repeat
        local digit = n % 36
        digits = string.sub(FS_BASE36, digit + 1, digit + 1) .. digits
        n = (n - digit) / 36
    until n == 0
    return digits
end

-- Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil), exact in doubles
-- for every year here.
local function fs_days_from_civil(y, m, d)
    if m <= 2 then
        y = y - 1
    end
    local era = math.floor(y / 400)
    local yoe = y - era * 400
    local doy = math.floor((153 * (m > 2 and m - 3 or m + 9) + 2) / 5) + d - 1
    return era * 146097 + yoe * 365 + math.floor(yoe / 4) - math.floor(yoe / 100) + doy - 719468
end

-- An ISO-8601 instant as Java's Instant.toString writes it, packed exactly: base-36 epoch seconds '.' base-36
-- nano-of-second. One of another year than 1970..9999 (or not in that form) is kept as it is: it ends in 'Z', a packed
-- one never does, so every instant is stored and read back exactly and packing never fails.
local function fs_instant_pack(iso)
    local y, mo, d, h, mi, s, rest = string.match(iso,
        '^(%d%d%d%d)%-(%d%d)%-(%d%d)T(%d%d):(%d%d):(%d%d)(.*)Z$')
    local fraction = rest == '' and '' or string.match(rest or '', '^%.(%d+)$')
    if not y or not fraction or #fraction > 9 or tonumber(y) < 1970 then
        return iso
    end
    local days = fs_days_from_civil(tonumber(y), tonumber(mo), tonumber(d))
    local seconds = ((days * 24 + tonumber(h)) * 60 + tonumber(mi)) * 60 + tonumber(s)
    return fs_base36(seconds) .. '.' .. fs_base36(tonumber(string.sub(fraction .. '000000000', 1, 9)))
end

-- A stored record as { status (the full name), buyer, requestId, lines, reservedAt (packed), pos, cancelledAt
-- (packed), redrivenAt } (the last three nil when absent); nil for none.
local function fs_record_decode(value)
    if not value then
        return nil
    end
    local p, n = {}, 0
    for part in string.gmatch(value .. FS_RECORD_SEPARATOR, FS_RECORD_NEXT_PART) do
        n = n + 1
        if part ~= '' then
            p[n] = part
        end
    end
    return { status = FS_LETTER_STATUS[p[1]], buyer = p[2], requestId = p[3], lines = p[4], reservedAt = p[5],
             pos = p[6], cancelledAt = p[7], redrivenAt = p[8] }
end

-- One concatenation, no table: every accepted reservation writes a record.
local function fs_record_encode(r)
    local s = FS_RECORD_SEPARATOR
    local text = FS_STATUS_LETTER[r.status] .. s .. r.buyer .. s .. r.requestId .. s .. r.lines .. s .. r.reservedAt
    local pos, cancelledAt, redrivenAt = r.pos or '', r.cancelledAt or '', r.redrivenAt or ''
    if redrivenAt ~= '' then
        return text .. s .. pos .. s .. cancelledAt .. s .. redrivenAt
    elseif cancelledAt ~= '' then
        return text .. s .. pos .. s .. cancelledAt
    elseif pos ~= '' then
        return text .. s .. pos
    end
    return text
end

-- A fresh RESERVED record, the text fs_record_encode makes of it, without the table: every accepted reservation
-- writes one (reserve.lua).
local function fs_record_reserved(buyer, requestId, lines, reservedAt)
    local s = FS_RECORD_SEPARATOR
    return FS_RECORD_RESERVED .. buyer .. s .. requestId .. s .. lines .. s .. reservedAt
end

-- The status of a stored record from its first letter alone: what a look over many records reads of each.
local function fs_record_status_of(value)
    return FS_LETTER_STATUS[string.sub(value, 1, 1)]
end

-- The status fs_record_read gives a stored value (nil for none, for a tombstone and for an unknown letter), read from
-- its first part alone: a batch that moves mostly fresh records decodes none of them whole (settle_batch.lua).
local function fs_record_status_read(value)
    if value and string.byte(value, 2) == FS_RECORD_SEPARATOR_BYTE then
        return FS_LETTER_STATUS[string.sub(value, 1, 1)]
    end
    return nil
end

-- The lines part of a stored record as fs_record_decode reads it (nil when empty or missing), without the decode.
local function fs_record_lines_of(value)
    local lines = string.match(value, FS_RECORD_LINES)
    return lines ~= '' and lines or nil
end

-- Whether a status may be written: a script checks a status it was given before it moves anything.
local function fs_record_status_known(status)
    return FS_STATUS_LETTER[status] ~= nil
end

-- The record of a reservation, nil for none and for what a restore leaves of an order (its status letter alone, ADR
-- 71): no script that reads a record moves or rewrites a restored order, only a restore finds it (fs_restore_find).
local function fs_record_of(value)
    if value and not string.find(value, FS_RECORD_SEPARATOR, 1, true) then
        return nil
    end
    return fs_record_decode(value)
end

local function fs_record_read(hash, id)
    return fs_record_of(redis.call('HGET', hash, id))
end

-- A stored record with its broker position set, as fs_record_read, a change of pos and fs_record_write would store
-- it; nil where fs_record_read gives nil. The relay's acknowledgement sets the position of records that hold none
-- yet, cancelledAt or redrivenAt either, by appending it to the text (no decode, no encode).
local function fs_record_with_pos(value, pos)
    if not value then
        return nil
    end
    -- Exactly five parts: a pattern that matches builds no string (counting the bars with gsub built a copy).
    if pos ~= '' and string.find(value, FS_RECORD_FIVE_PARTS) then
        return value .. FS_RECORD_SEPARATOR .. pos
    end
    local r = fs_record_of(value)
    if not r then
        return nil
    end
    r.pos = pos
    return fs_record_encode(r)
end

local function fs_record_write(hash, id, r)
    redis.call('HSET', hash, id, fs_record_encode(r))
end

-- The first step of every one-reservation transition: the record when it is in status `from`, else nil, so that the
-- caller answers 0 and a transition made twice is harmless.
local function fs_record_in(hash, id, from)
    local r = fs_record_read(hash, id)
    if r and r.status == from then
        return r
    end
    return nil
end

-- The skeleton of a one-reservation transition out of RESERVED (confirm, release, fail): the record when it is
-- RESERVED (nil otherwise: the caller answers 0), its lines' units moved from 'reserved' to `to` ('sold', 'avail', or
-- nil for none: see fs_lines_move), checked first; the reason, with nothing written, as second answer when its lines
-- do not decode or a counter would go below zero. The caller writes what becomes of the record.
local function fs_reserved_move(stock, holdings, reservations, id, to)
    local r = fs_record_in(reservations, id, 'RESERVED')
    if not r then
        return nil
    end
    local lines, why = fs_decode_lines(r.lines)
    local from = to and 'reserved'
    why = why or fs_lines_short(stock, holdings, r.buyer, lines, from, to)
    if why then
        return r, why
    end
    fs_lines_move(stock, holdings, r.buyer, lines, from, to)
    return r, nil
end

-- ---- The filter of accepted request keys ----

-- The sale's filter of accepted request keys (ADR 0069): a Bloom filter of every <buyer>:<requestId> the requests
-- index has held since the filter was made, so that an instance holding a copy can tell a key surely never accepted
-- (answered "sold out" from memory) from one that may have been (asked here, which replays it). Every script that
-- adds to the requests index adds the key here in the same step; only the scripts that drop the index drop it.
-- A string: an 8-byte header (u32 bits m at bit 0, u8 hash count k at bit 32, u8 state at bit 40: 1 usable, 0 being
-- refilled by a rebuild; u8 layout at bit 48), then m bits from bit 64 on, allocated whole when made so that one GET
-- reads all of it. h1, h2 are the first two 32-bit words of the key's SHA-1 (the adapter's AcceptedRequestsFilter
-- computes the same positions):
--   layout 1 (ADR 0083): the key's k bits all lie in one 32-bit word, word h1 mod (m / 32), bit (h2 >> 5i) & 31 of it
--   (bit 0 the word's first) for i = 0 .. k-1; a call adding many keys reads and writes each word once;
--   layout 0 (filters made before it): bit (h1 + i * h2) mod m for i = 0 .. k-1.
local FS_KEYS_HEADER_BITS = 64
local FS_KEYS_HEADER_WORDS = 2
local FS_KEYS_WORD_LAYOUT = 1

local function fs_keys_make(filter, bits, hashes, state, layout)
    redis.call('UNLINK', filter)
    redis.call('SETBIT', filter, FS_KEYS_HEADER_BITS + bits - 1, 0)
    redis.call('BITFIELD', filter, 'SET', 'u32', 0, bits, 'SET', 'u8', 32, hashes, 'SET', 'u8', 40, state,
        'SET', 'u8', 48, layout or 0)
end

-- The filter as a script call uses it: its key, bits m, hash count k and layout, read once per call with one
-- BITFIELD GET (only fs_keys_make writes them, and no script that adds keys makes the filter).
local function fs_keys_open(filter)
    local header = redis.call('BITFIELD', filter, 'GET', 'u32', 0, 'GET', 'u8', 32, 'GET', 'u8', 48)
    return { key = filter, bits = header[1], hashes = header[2], layout = header[3], pending = {}, words = {},
             shape = string.format('%d:%d:%d', header[1], header[2], header[3]) }
end

-- Notes a key's bits in layout 1 as one word and its mask: the word as BITFIELD's u32 offset text '#n' (word n - 2 of
-- the bits, after the header's two), the mask as a number whose bit 31 is the word's first bit.
local function fs_keys_note_word(filter, offset, mask)
    local noted = filter.words[offset]
    if not noted then
        filter.pending[#filter.pending + 1] = offset
        noted = 0
    end
    filter.words[offset] = bit.bor(noted, mask)
end

-- Notes a request key's bits in a filter opened with fs_keys_open; fs_keys_set writes every key noted so far. A sale
-- made before the filter existed has none (m = 0) and keeps none. reserve.lua takes a key's word and mask from the
-- adapter instead (computed there, where a core is cheaper than here) whenever the adapter knew the filter's shape.
local function fs_keys_bits(filter, key)
    local bits = filter.bits
    if bits == 0 then
        return
    end
    local hex = redis.sha1hex(key)
    local h1, h2 = tonumber(string.sub(hex, 1, 8), 16), tonumber(string.sub(hex, 9, 16), 16)
    if filter.layout == FS_KEYS_WORD_LAYOUT then
        local mask = 0
        for i = 0, filter.hashes - 1 do
            mask = bit.bor(mask, bit.lshift(1, 31 - bit.band(bit.rshift(h2, 5 * i), 31)))
        end
        fs_keys_note_word(filter, string.format('#%d', h1 % (bits / 32) + FS_KEYS_HEADER_WORDS), mask)
        return
    end
    local set = filter.pending
    for i = 0, filter.hashes - 1 do
        local n = #set
        set[n + 1], set[n + 2], set[n + 3], set[n + 4] = 'SET', 'u1', FS_KEYS_HEADER_BITS + (h1 + i * h2) % bits, 1
    end
end

-- Writes the bits noted so far: in layout 1 each word read once and written once, in one BITFIELD each.
local function fs_keys_set(filter)
    local pending = filter.pending
    if #pending == 0 then
        return
    end
    filter.pending = {}
    if filter.layout ~= FS_KEYS_WORD_LAYOUT then
        fs_call_all('BITFIELD', filter.key, pending, 4)
        return
    end
    local step = math.floor(FS_ARGUMENTS_PER_CALL / 4)
    for first = 1, #pending, step do
        local last = math.min(#pending, first + step - 1)
        local read = {}
        for i = first, last do
            read[#read + 1], read[#read + 2], read[#read + 3] = 'GET', 'u32', pending[i]
        end
        local old = redis.call('BITFIELD', filter.key, unpack(read))
        local write = {}
        for i = first, last do
            local value = bit.bor(old[i - first + 1], filter.words[pending[i]])
            write[#write + 1], write[#write + 2], write[#write + 3], write[#write + 4] = 'SET', 'u32', pending[i],
                string.format('%d', value < 0 and value + 4294967296 or value)
        end
        redis.call('BITFIELD', filter.key, unpack(write))
    end
    filter.words = {}
end

-- Adds one request key to a filter opened with fs_keys_open.
local function fs_keys_add(filter, key)
    fs_keys_bits(filter, key)
    fs_keys_set(filter)
end

-- ---- The request index, settling and restoring ----

-- The request index (fs:{a}:requests, "<buyer>:<requestId>" -> the reservation it made) holds only what the field and
-- the sale do not say already (ADR 71): the id's token (what follows '<prefix>.'), or '' when the token is the request
-- id itself (an attempt sent without a key). The prefix is the sale's id, or '<sale>.<k>of<n>' in slice k of a sale of
-- n slices (ADR 109): every id of one slice has the same. An id not of that form (none the service makes) is kept
-- whole behind a '.'; a value holding '.' elsewhere is a whole id, as written before.
local function fs_request_value(idPrefix, id, requestId)
    local prefix = idPrefix .. '.'
    local token = string.sub(id, #prefix + 1)
    if string.sub(id, 1, #prefix) ~= prefix or token == '' or string.find(token, '.', 1, true) then
        return '.' .. id
    end
    return token == requestId and '' or token
end

local function fs_request_id(idPrefix, requestId, value)
    if string.sub(value, 1, 1) == '.' then
        return string.sub(value, 2)
    elseif string.find(value, '.', 1, true) then
        return value
    end
    return idPrefix .. '.' .. (value == '' and requestId or value)
end

-- The index is spread over buckets (ADR 0100): fs:{a}:requests:<k>, k = 1 .. the sale's bucket count, which warm_up.lua
-- fixes for the sale's life from its units (meta's requestBuckets) so that a bucket holds well under Redis's
-- hash-max-listpack-entries (128) entries at sell-out (32 on average, room for entries of cancelled units sold again)
-- and stays a listpack: about 22 bytes an entry instead of a dict entry's 73. A field's bucket is the first 32-bit word
-- of its SHA-1 mod the count, plus 1 (RedisKeys.requestKey computes the same). A sale warmed before the buckets has no
-- count in meta and keeps the single hash fs:{a}:requests. A bucket past the listpack limits grows into a dict: memory,
-- never correctness. The scripts name the buckets from the base key in KEYS (same hash tag, same slot).
local FS_REQUEST_ENTRIES_PER_BUCKET = 32
local FS_REQUEST_BUCKETS_MAX = 8192

local function fs_request_buckets_for(units)
    return math.max(1, math.min(FS_REQUEST_BUCKETS_MAX, math.ceil(units / FS_REQUEST_ENTRIES_PER_BUCKET)))
end

-- The key holding a field's entry: requests is the index's base key (fs:{a}:requests), buckets meta's requestBuckets
-- as read (nil or false: the single hash).
local function fs_request_key(requests, buckets, field)
    if not buckets then
        return requests
    end
    return requests .. ':' .. (tonumber(string.sub(redis.sha1hex(field), 1, 8), 16) % tonumber(buckets) + 1)
end

-- Every key of the index: the single hash and, for a sale with buckets, each of them.
local function fs_request_keys(requests, buckets)
    local keys = { requests }
    for k = 1, tonumber(buckets or '0') do
        keys[#keys + 1] = requests .. ':' .. k
    end
    return keys
end

-- The buckets an archive or a rebuild drops are not unlinked in its atomic step (8,192 keys take longer than a command
-- may, ADR 0102): the step writes the drop marker fs:{a}:drop, "<buckets>:<count to restore>:<token>", and
-- the adapter unlinks buckets 1 .. <buckets> in pages (request_drop.lua), each only while the marker is the one it
-- read; the last page deletes the marker. While it is there nothing writes a bucket: warm_up.lua, rebuild_page.lua
-- and rebuild_finish.lua refuse, and reserve.lua finds no sale (archive) or no count in meta (rebuild). A drop
-- already pending is widened to the larger count and given a new token, so a caller still paging the older one stops.
-- buckets: how many to drop (nil: nothing new); restore: the count meta gets back when the drop ends (nil: none).
local function fs_request_drop_begin(marker, buckets, restore)
    if not buckets then
        return
    end
    local count, pending = tonumber(buckets), redis.call('GET', marker)
    if pending then
        count = math.max(count, tonumber(string.match(pending, '^%d+')))
    end
    redis.call('SET', marker, count .. ':' .. (restore or '') .. ':' .. fs_new_load_id())
end

-- A reservation MySQL ordered leaves its record (ADR 71): the database of record holds it from now on. Its request
-- index entry stays, so a keyed retry is still recognised (reserve.lua answers SETTLED) and a restore still finds it.
local function fs_settle(hash, id)
    redis.call('HDEL', hash, id)
end

-- What a restore of a closed order finds: the status the hot store holds for it and its record. 'ORDERED' with no
-- record for one MySQL ordered (its request entry still names it: fs_settle), '' for one the hot store never held.
-- A restored one is its status letter alone (fs_restored), a tombstone the next restore finds.
local function fs_restore_find(reservations, requests, buckets, id, buyer, requestId)
    local value = redis.call('HGET', reservations, id)
    if value then
        local r = fs_record_decode(value)
        return r.status, r.buyer and r or nil
    end
    -- The id's own prefix, up to its last dot (its sale, or its slice of a sale of slices): the adapter names this
    -- slice's keys from it.
    local idPrefix = string.match(id, '^(.*)%.[^.]*$')
    local field = buyer .. ':' .. requestId
    local entry = redis.call('HGET', fs_request_key(requests, buckets, field), field)
    if entry and idPrefix and fs_request_id(idPrefix, requestId, entry) == id then
        return 'ORDERED', nil
    end
    return '', nil
end

local function fs_restored(hash, id, status)
    redis.call('HSET', hash, id, FS_STATUS_LETTER[status])
end

-- The first step of a restore of one closed order (restore.lua, and each order of restore_batch.lua): the status the
-- hot store holds for it (fs_restore_find) and, when that is ORDERED, whose units it gives back and its decoded lines
-- (the record's when there is one, else the caller's buyer and lines "sku:q,sku:q"). The reason as last answer when
-- the final status is not CANCELLED or EXPIRED, or the order's lines do not decode.
local function fs_restore_lines(reservations, requests, buckets, id, finalStatus, buyer, requestId, lines)
    if finalStatus ~= 'CANCELLED' and finalStatus ~= 'EXPIRED' then
        return nil, nil, nil, 'cannot restore to ' .. tostring(finalStatus)
    end
    local status, r = fs_restore_find(reservations, requests, buckets, id, buyer, requestId)
    if status ~= 'ORDERED' then
        return status
    end
    local decoded, why = fs_decode_lines(r and r.lines or lines)
    return status, r and r.buyer or buyer, decoded, why
end
