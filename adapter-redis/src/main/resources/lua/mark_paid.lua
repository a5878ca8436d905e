-- ORDERED -> PAID, mirroring MySQL. Nothing moves: the units stay sold and held. Any other status (or no
-- reservation) changes nothing, so marking twice is harmless.
--
-- KEYS: 1 reservations
-- ARGV: 1 reservationId
-- Reply: 1 when marked now, 0 otherwise.

local reservations, id = KEYS[1], ARGV[1]
local r = fs_record_read(reservations, id)
if not r or r.status ~= 'ORDERED' then
    return 0
end
r.status = 'PAID'
fs_record_write(reservations, id, r)
return 1
