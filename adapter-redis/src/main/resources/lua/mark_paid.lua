-- ORDERED -> PAID, mirroring MySQL. Nothing moves: the units stay sold and held. An ordered reservation has no record
-- (ADR 71), so this finds one only in a sale loaded before that, and the record leaves as settle does. Any other status
-- (or no record) changes nothing, so marking twice is harmless.
--
-- KEYS: 1 reservations
-- ARGV: 1 reservationId
-- Reply: 1 when marked now, 0 otherwise.

local reservations, id = KEYS[1], ARGV[1]
if not fs_record_in(reservations, id, 'ORDERED') then
    return 0
end
fs_settle(reservations, id)
return 1
