-- How far the relays are behind on one outbox, at a cost independent of its length: the entries the group has not
-- acknowledged (pending + not yet delivered, XINFO GROUPS' lag), and the id of the oldest of them (the group's oldest
-- pending entry, else the first entry after its last-delivered id). Without the group (no relay read it yet) every
-- entry counts. Read only.
--
-- KEYS: 1 outbox
-- ARGV: 1 group
-- Reply: {depth, oldest entry id or ''}

local outbox, group = KEYS[1], ARGV[1]
if redis.call('EXISTS', outbox) == 0 then
    return {0, ''}
end
local function first(from)
    local entries = redis.call('XRANGE', outbox, from, '+', 'COUNT', 1)
    if #entries > 0 then
        return entries[1][1]
    end
    return ''
end

for _, info in ipairs(redis.call('XINFO', 'GROUPS', outbox)) do
    local fields = {}
    for i = 1, #info, 2 do
        fields[info[i]] = info[i + 1]
    end
    if fields['name'] == group then
        local pending = redis.call('XPENDING', outbox, group)
        local depth
        if type(fields['lag']) == 'number' then
            depth = fields['pending'] + fields['lag']
        else
            -- Redis before 7.0, or a lag it cannot tell (entries deleted meanwhile): the stream's length bounds it.
            depth = redis.call('XLEN', outbox)
        end
        if pending[1] > 0 then
            return {depth, pending[2]}
        end
        return {depth, first('(' .. fields['last-delivered-id'])}
    end
end
return {redis.call('XLEN', outbox), first('-')}
