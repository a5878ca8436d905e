-- Appends the "reserved" event of a reservation that is still RESERVED to the outbox again, exactly as reserve.lua
-- wrote it, so the order pipeline settles a reservation whose first event was lost. MySQL's keys make a second
-- delivery harmless. Any other status (or no reservation) appends nothing.
--
-- The caller found the reservation nowhere in the pipeline; this step checks, atomically, that it is still where
-- the caller saw it (ADR 29): its recorded broker position is the one seen ("" for none: had a relay acknowledged
-- it meanwhile, it would have one now), and it was not re-driven within the window. A re-drive clears the position
-- (the new event records its own when relayed) and notes when it happened.
--
-- KEYS: 1 reservations, 2 outbox
-- ARGV: 1 reservationId, 2 the position seen ("*" checks none), 3 the window in millis (0: none)
-- Reply: 1 when appended, 0 otherwise.

local reservations, outbox, id = KEYS[1], KEYS[2], ARGV[1]
local r = fs_record_in(reservations, id, 'RESERVED')
if not r then
    return 0
end
if ARGV[2] ~= '*' and (r.pos or '') ~= ARGV[2] then
    return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = tonumber(ARGV[3] or '0')
if r.redrivenAt and window > 0 and now - tonumber(r.redrivenAt) < window then
    return 0
end
-- An entry as reserve.lua writes it, of this one reservation: the record as it was accepted (ADR 0105, ADR 0107).
fs_outbox_add(outbox, { id, fs_record_reserved(r.buyer, r.requestId, r.lines, r.reservedAt) })
r.redrivenAt, r.pos = string.format('%.0f', now), nil
fs_record_write(reservations, id, r)
return 1
