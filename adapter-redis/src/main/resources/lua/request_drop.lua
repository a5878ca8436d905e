-- One page of the drop of a sale's request index buckets that archive.lua or rebuild_begin.lua began (ADR 0102): the
-- adapter reads the drop marker, "<buckets>:<count to restore>:<token>", and sends buckets 1 .. <buckets> in pages of
-- a bounded number of keys, so that no command takes long. A page unlinks only while the marker is the one the caller
-- read: a drop taken over (a new marker) or finished by another caller (no marker) leaves this caller's pages without
-- effect, so a late page can never unlink a bucket written after the drop. The last page deletes the marker and, for a
-- rebuild still running, puts the bucket count back in meta for the rebuild's pages.
--
-- KEYS: 1 the drop marker, 2 meta, then this page's buckets (of the marker's sale: the same slot)
-- ARGV: 1 the marker as read, 2 '1' when this page is the last
-- Reply: 1 when this page was dropped, 0 when the marker is another or gone (nothing unlinked).

if redis.call('GET', KEYS[1]) ~= ARGV[1] then
    return 0
end
if #KEYS > 2 then
    redis.call('UNLINK', unpack(KEYS, 3))
end
if ARGV[2] == '1' then
    local restore = string.match(ARGV[1], '^%d+:(%d*):')
    if restore ~= '' and redis.call('HEXISTS', KEYS[2], 'rebuilding') == 1 then
        redis.call('HSET', KEYS[2], 'requestBuckets', restore)
    end
    redis.call('DEL', KEYS[1])
end
return 1
