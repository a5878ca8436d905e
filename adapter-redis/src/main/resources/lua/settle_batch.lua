-- Tells the hot store what MySQL decided for a batch of one activity's reservations, in one atomic step.
-- Confirmed: RESERVED -> ORDERED, reserved units become sold and the record leaves (as confirm.lua, ADR 71).
-- Failed: RESERVED -> FAILED and the units go back at once, to available and to the buyer's allowance (as release.lua
-- gives them back); MySQL refused the order and holds none of its units, so this is the one place they come back, and
-- the status check makes it happen once. A reservation in any other status (or missing) is left alone, so the whole
-- batch may be settled again.
-- Every move of the batch is checked first (lib/ledger.lua's rules, summed over the batch): when a counter would go
-- below zero the whole call is refused and nothing is written. Each moved SKU's version is bumped.
--
-- KEYS: 1 stock, 2 holdings, 3 reservations, 4 in-flight index (a settled reservation leaves it)
-- ARGV: 1 number of confirmed ids n, then n confirmed ids, then the failed ids
-- Reply: per id, in ARGV order, the status it had before this call ('' when there is no such reservation);
--        'RESERVED' means this call moved it (a confirmed one then has no record: ADR 71). An FS_REFUSED error when
--        the model refuses a move.

local stock, holdings, reservations = KEYS[1], KEYS[2], KEYS[3]
local confirmed = tonumber(ARGV[1])
local ids = {}
for i = 2, #ARGV do
    ids[i - 1] = ARGV[i]
end
-- Every record of the batch with one HMGET; the moves summed per counter and written once each (ADR 0074). A record
-- is decoded whole only when it fails (it is written back); a confirmed one is read for its status and lines alone,
-- as fs_record_read would give them, without the tables of a decode (ADR 0089).
local values = fs_call_read_all('HMGET', reservations, ids)
local reply, needReserved, needHolding, seen = {}, {}, {}, {}
-- The reservations this call moves, in ARGV order: their ids, decoded lines and, for a failed one, its whole record
-- (false for a confirmed one, which is never decoded whole).
local moves, moveLines, moveRecords = {}, {}, {}
-- A sale's reservations mostly carry the same few line texts ("sku:1"), and every line moves the same few counters of
-- its SKU: each text is decoded, and each counter's field name made (fs_sku_fields), once per call.
local linesOf = {}
for i, id in ipairs(ids) do
    local status = fs_record_status_read(values[i] or nil)
    reply[i] = status or ''
    -- An id named twice is moved once; both answer the status it had before this call.
    if status == 'RESERVED' and not seen[id] then
        seen[id] = true
        local confirming = i <= confirmed
        local r = not confirming and fs_record_decode(values[i])
        local text = r and r.lines or fs_record_lines_of(values[i])
        local lines = text and linesOf[text]
        if not lines then
            local why
            lines, why = fs_decode_lines(text)
            if not lines then
                return fs_refuse(id .. ': ' .. why)
            end
            linesOf[text] = lines
        end
        local m = #moves + 1
        moves[m], moveLines[m], moveRecords[m] = id, lines, r
        for _, line in ipairs(lines) do
            needReserved[line.sku] = (needReserved[line.sku] or 0) + line.quantity
            if not confirming then
                local field = r.buyer .. ':' .. line.sku
                needHolding[field] = (needHolding[field] or 0) + line.quantity
            end
        end
    end
end
local short = fs_short_of_sums(stock, needReserved, ':reserved') or fs_short_of_sums(holdings, needHolding, '')
if short then
    return fs_refuse(short)
end
local counters = fs_counters()
-- Confirmed moves counted per decoded line text (a batch's few), each text's counters moved once by their sum.
local confirmedOf, confirmedTexts = {}, {}
local gone, failedRecords = {}, {}
for m, id in ipairs(moves) do
    local lines, r = moveLines[m], moveRecords[m]
    if not r then
        if not confirmedOf[lines] then
            confirmedOf[lines] = 0
            confirmedTexts[#confirmedTexts + 1] = lines
        end
        confirmedOf[lines] = confirmedOf[lines] + 1
        gone[#gone + 1] = id
    else
        for _, line in ipairs(lines) do
            local f = fs_sku_fields(line.sku)
            fs_counters_add(counters, f.reserved, -line.quantity)
            fs_counters_add(counters, f.avail, line.quantity)
            fs_counters_add(counters, f.held, -line.quantity)
            fs_counters_add(counters, f.version, 1)
        end
        r.status = 'FAILED'
        failedRecords[#failedRecords + 1], failedRecords[#failedRecords + 2] = id, fs_record_encode(r)
    end
end
for _, lines in ipairs(confirmedTexts) do
    local n = confirmedOf[lines]
    for _, line in ipairs(lines) do
        local f = fs_sku_fields(line.sku)
        fs_counters_add(counters, f.reserved, -line.quantity * n)
        fs_counters_add(counters, f.sold, line.quantity * n)
        fs_counters_add(counters, f.version, n)
    end
end
fs_counters_write(counters, stock)
-- A failed order's units go back to the buyer's allowance: each holding down by the batch's sum, removed at zero.
for field, units in pairs(needHolding) do
    if redis.call('HINCRBY', holdings, field, -units) == 0 then
        redis.call('HDEL', holdings, field)
    end
end
fs_call_all('HDEL', reservations, gone, 1)
fs_call_all('HSET', reservations, failedRecords, 2)
fs_call_all('HDEL', KEYS[4], moves, 1)
return reply
