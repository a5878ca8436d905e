-- RESERVED -> FAILED: MySQL refused the order. Nothing is given back: the units stay reserved and the buyer
-- keeps holding them until reconciliation decides. Any other status (or no reservation) changes nothing,
-- so failing twice is harmless. The SKUs' versions move: reconciliation counts a FAILED reservation differently.
-- It stays in the in-flight index: reconciliation gives its units back and then takes it out (reconcile_settled.lua).
--
-- KEYS: 1 stock, 2 reservations
-- ARGV: 1 reservationId
-- Reply: 1 when failed now, 0 otherwise.

local stock, reservations, id = KEYS[1], KEYS[2], ARGV[1]
local r, why = fs_reserved_move(stock, nil, reservations, id, nil)
if not r then
    return 0
end
if why then
    return fs_refuse(why)
end
r.status = 'FAILED'
fs_record_write(reservations, id, r)
return 1
