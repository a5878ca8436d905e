-- Checks that an activity's outbox is drained and, when asked, deletes every key of the activity in the same
-- atomic step. Drained: the relays' group has no pending entry and nothing after its last-delivered id (or, with no
-- group yet, the stream is empty). A reservation accepted before this script ran is then in the order pipeline;
-- one attempted after it finds no activity (NOT_READY). UNLINK frees big hashes off the main thread.
--
-- KEYS: 1 outbox, then every other key of the activity
-- ARGV: 1 relay group, 2 'check' or 'delete'
-- Reply: 1 when drained (and, for 'delete', every key is gone), 0 when not drained (nothing deleted).

local outbox, group, mode = KEYS[1], ARGV[1], ARGV[2]

if not fs_outbox_drained(outbox, group) then
    return 0
end
if mode == 'delete' then
    redis.call('UNLINK', unpack(KEYS))
end
return 1
