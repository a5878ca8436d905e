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
local reply, moves, needReserved, needHolding = {}, {}, {}, {}
for i = 2, #ARGV do
    local id = ARGV[i]
    local r = fs_record_read(reservations, id)
    reply[#reply + 1] = r and r.status or ''
    if r and r.status == 'RESERVED' then
        local lines, why = fs_decode_lines(r.lines)
        if not lines then
            return fs_refuse(id .. ': ' .. why)
        end
        local confirming = i <= confirmed + 1
        moves[#moves + 1] = { id = id, record = r, lines = lines, confirming = confirming }
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
for _, move in ipairs(moves) do
    for _, line in ipairs(move.lines) do
        redis.call('HINCRBY', stock, line.sku .. ':reserved', -line.quantity)
        if move.confirming then
            redis.call('HINCRBY', stock, line.sku .. ':sold', line.quantity)
        else
            redis.call('HINCRBY', stock, line.sku .. ':avail:1', line.quantity)
            fs_take_holding(stock, holdings, move.record.buyer, line.sku, line.quantity)
        end
        fs_bump_version(stock, line.sku)
    end
    if move.confirming then
        fs_settle(reservations, move.id)
    else
        move.record.status = 'FAILED'
        fs_record_write(reservations, move.id, move.record)
    end
    redis.call('HDEL', KEYS[4], move.id)
end
return reply
