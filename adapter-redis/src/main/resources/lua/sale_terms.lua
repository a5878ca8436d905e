-- Writes an operator's change of a sale's terms into its meta (ADR 79): the pause, or the window, which reserve.lua
-- reads in the one HMGET that decides every attempt. Only a sale this Redis holds (loaded once: its 'skus' field) is
-- written; one that is not here takes its terms from MySQL when it is warmed up or rebuilt.
--
-- KEYS: 1 meta
-- ARGV: field, value pairs, among paused, startsAtSec, startsAtNano, endsAtSec, endsAtNano
-- Reply: 1 when written, 0 when the sale is not here.

local meta = KEYS[1]
if redis.call('HEXISTS', meta, 'skus') == 0 then
    return 0
end
redis.call('HSET', meta, unpack(ARGV))
return 1
