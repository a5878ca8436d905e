-- Acknowledges relayed outbox entries, then trims the stream below the oldest entry that any consumer group
-- still needs: its oldest pending entry, or when nothing is pending, the first entry after its last-delivered
-- id. Entries not yet delivered and entries still pending are never trimmed. One script, so no relay can read
-- or claim between the look at the groups and the trim.
--
-- KEYS: 1 outbox
-- ARGV: 1 group, then the entry ids to acknowledge
-- Reply: the number of entries acknowledged now.

local outbox, group = KEYS[1], ARGV[1]
if redis.call('EXISTS', outbox) == 0 then
    return 0
end
local acknowledged = redis.call('XACK', outbox, group, unpack(ARGV, 2))

-- Stream ids are "<millis>-<sequence>"; both parts stay far below 2^53 for ids made by XADD *.
local function parts(id)
    local millis, sequence = string.match(id, '^(%d+)-(%d+)$')
    return tonumber(millis), tonumber(sequence)
end
local function isBefore(id, other)
    local millis, sequence = parts(id)
    local otherMillis, otherSequence = parts(other)
    return millis < otherMillis or (millis == otherMillis and sequence < otherSequence)
end
local function firstAfter(id)
    local millis, sequence = string.match(id, '^(%d+)-(%d+)$')
    if #sequence > 15 then
        -- Too large to add one exactly: keep this (delivered) entry rather than risk a later one.
        return id
    end
    return millis .. '-' .. string.format('%.0f', tonumber(sequence) + 1)
end

local keepFrom = nil
for _, info in ipairs(redis.call('XINFO', 'GROUPS', outbox)) do
    local name, lastDelivered
    for i = 1, #info, 2 do
        if info[i] == 'name' then
            name = info[i + 1]
        elseif info[i] == 'last-delivered-id' then
            lastDelivered = info[i + 1]
        end
    end
    local pending = redis.call('XPENDING', outbox, name)
    local needed = pending[1] > 0 and pending[2] or firstAfter(lastDelivered)
    if keepFrom == nil or isBefore(needed, keepFrom) then
        keepFrom = needed
    end
end
if keepFrom ~= nil then
    redis.call('XTRIM', outbox, 'MINID', keepFrom)
end
return acknowledged
