-- Deletes every key of an activity, in the atomic step that checks its outbox is drained. Drained: the relays' group
-- has no pending entry and nothing after its last-delivered id (or, with no group yet, the stream is empty). A
-- reservation accepted before this script ran is then in the order pipeline; one attempted after it finds no activity
-- (NOT_READY). UNLINK frees big hashes off the main thread.
--
-- The request index's buckets (ADR 0100) are not in KEYS and not unlinked here: up to 8,192 keys take longer than a
-- command may (ADR 0102). This step writes the drop marker with meta's requestBuckets, and the adapter unlinks the
-- buckets in pages (request_drop.lua); until the last page nothing writes a bucket (see fs_request_drop_begin). A
-- retry after a crash between the two finds the marker still there (this step keeps it) and finishes the drop.
--
-- KEYS: 1 the drop marker, 2 outbox, 3 meta, 4 the request index's base key, then every other key of the activity
-- ARGV: 1 relay group
-- Reply: 1 when drained and every key is gone (the buckets named by the marker), 0 when not drained (nothing
--        deleted).

if not fs_outbox_drained(KEYS[2], ARGV[1]) then
    return 0
end
fs_request_drop_begin(KEYS[1], redis.call('HGET', KEYS[3], 'requestBuckets'))
redis.call('UNLINK', unpack(KEYS, 2))
return 1
