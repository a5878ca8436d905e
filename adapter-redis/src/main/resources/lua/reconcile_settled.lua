-- Takes reservations out of the in-flight index that reconciliation found settled in MySQL: a buyer's cancel MySQL has
-- recorded, a FAILED one whose units a repair gave back, or one no longer in a status that needs MySQL's word. Only
-- while its status is still the one the reconciler saw, and never a RESERVED one (that one is in flight until a
-- script settles it), so a move since the look keeps the entry for the next pass.
--
-- KEYS: 1 in-flight index, 2 reservations
-- ARGV: pairs of reservation id and the status seen ('' when the record was gone)
-- Reply: the number of entries removed.

local inflight, reservations = KEYS[1], KEYS[2]
local removed = 0
for i = 1, #ARGV, 2 do
    local id = ARGV[i]
    local r = fs_record_read(reservations, id)
    local status = r and r.status or ''
    if status ~= 'RESERVED' and status == ARGV[i + 1] then
        removed = removed + redis.call('HDEL', inflight, id)
    end
end
return removed
