-- Deletes every key of an activity, in the atomic step that checks its outbox is drained. Drained: the relays' group
-- has no pending entry and nothing after its last-delivered id (or, with no group yet, the stream is empty). A
-- reservation accepted before this script ran is then in the order pipeline; one attempted after it finds no activity
-- (NOT_READY). UNLINK frees big hashes off the main thread.
--
-- The request index's buckets (ADR 0100) are not in KEYS: the script names them from meta's requestBuckets and unlinks
-- them in calls of a few thousand keys (at most 8,192 small listpacks, each freed at once).
--
-- KEYS: 1 outbox, 2 meta, 3 the request index's base key, then every other key of the activity
-- ARGV: 1 relay group
-- Reply: 1 when drained and every key is gone, 0 when not drained (nothing deleted).

if not fs_outbox_drained(KEYS[1], ARGV[1]) then
    return 0
end
fs_unlink_all(fs_request_keys(KEYS[3], redis.call('HGET', KEYS[2], 'requestBuckets')))
redis.call('UNLINK', unpack(KEYS))
return 1
