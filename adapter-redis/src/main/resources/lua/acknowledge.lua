-- Acknowledges relayed outbox entries, then trims the stream below the oldest entry that any consumer group
-- still needs: its oldest pending entry, or when nothing is pending, the first entry after its last-delivered
-- id. Entries not yet delivered and entries still pending are never trimmed. One script, so no relay can read
-- or claim between the look at the groups and the trim.
--
-- With each acknowledged entry it records where the broker stored the event (the record's pos,
-- "<partition>:<offset>") on a reservation record that still exists, in the same step: a reservation is never out of
-- the outbox without its position, which is how reconciliation tells "in Kafka" from "lost" (ADR 29).
--
-- KEYS: 1 outbox, 2 reservations
-- ARGV: 1 group, 2 n, 3..n+2 the entry ids to acknowledge, then pairs of reservation id and position
-- Reply: the number of entries acknowledged now.

local outbox, reservations, group = KEYS[1], KEYS[2], ARGV[1]
if redis.call('EXISTS', outbox) == 0 then
    return 0
end
local n = tonumber(ARGV[2])
local acknowledged = redis.call('XACK', outbox, group, unpack(ARGV, 3, n + 2))
-- Every record with one HMGET, every position with one HSET (ADR 0074).
local ids, positions = {}, {}
for i = n + 3, #ARGV, 2 do
    ids[#ids + 1], positions[#positions + 1] = ARGV[i], ARGV[i + 1]
end
if #ids > 0 then
    local rewritten = {}
    for i, value in ipairs(fs_call_read_all('HMGET', reservations, ids)) do
        local with = fs_record_with_pos(value, positions[i])
        if with then
            rewritten[#rewritten + 1], rewritten[#rewritten + 2] = ids[i], with
        end
    end
    fs_call_all('HSET', reservations, rewritten, 2)
end

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
