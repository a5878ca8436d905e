-- Deletes every key of an activity, in the atomic step that checks its outbox is drained. Drained: the relays' group
-- has no pending entry and nothing after its last-delivered id (or, with no group yet, the stream is empty). A
-- reservation accepted before this script ran is then in the order pipeline; one attempted after it finds no activity
-- (NOT_READY). UNLINK frees big hashes off the main thread.
--
-- KEYS: 1 outbox, then every other key of the activity
-- ARGV: 1 relay group
-- Reply: 1 when drained and every key is gone, 0 when not drained (nothing deleted).

if not fs_outbox_drained(KEYS[1], ARGV[1]) then
    return 0
end
redis.call('UNLINK', unpack(KEYS))
return 1
