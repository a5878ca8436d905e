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
-- Every record of the batch with one HMGET; the moves summed per counter and written once each (fs_moves, ADR 0074).
-- A record is decoded whole only when it fails (it is written back); a confirmed one is read for its status and lines
-- alone, as fs_record_read would give them, without the tables of a decode (ADR 0089). This loop runs per
-- reservation, so it is written out here rather than calling the library's one-reservation skeleton (fs_reserved_move).
local values = fs_call_read_all('HMGET', reservations, ids)
local reply, seen, moves = {}, {}, fs_moves()
-- The reservations this call moves (they leave the in-flight index), the confirmed ones (their records leave), and the
-- failed ones' records as written back.
local settled, gone, failedRecords = {}, {}, {}
-- A sale's reservations mostly carry the same few line texts ("sku:1"): each text is decoded once per call, and the
-- confirmed ones are counted per decoded text, whose moves are then added once, times their count.
local linesOf, confirmedOf, confirmedTexts = {}, {}, {}
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
        settled[#settled + 1] = id
        if confirming then
            if not confirmedOf[lines] then
                confirmedOf[lines] = 0
                confirmedTexts[#confirmedTexts + 1] = lines
            end
            confirmedOf[lines] = confirmedOf[lines] + 1
            gone[#gone + 1] = id
        else
            fs_moves_add(moves, lines, 'reserved', 'avail', 1, r.buyer)
            r.status = 'FAILED'
            failedRecords[#failedRecords + 1], failedRecords[#failedRecords + 2] = id, fs_record_encode(r)
        end
    end
end
for _, lines in ipairs(confirmedTexts) do
    fs_moves_add(moves, lines, 'reserved', 'sold', confirmedOf[lines])
end
local short = fs_moves_short(moves, stock, holdings)
if short then
    return fs_refuse(short)
end
fs_moves_write(moves, stock, holdings)
fs_call_all('HDEL', reservations, gone, 1)
fs_call_all('HSET', reservations, failedRecords, 2)
fs_call_all('HDEL', KEYS[4], settled, 1)
return reply
