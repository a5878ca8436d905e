-- Starts (or takes over) the rebuild of an activity Redis lost, wholly or in part (ADR 31). The rebuild runs in
-- bounded steps while the sale answers NOT_READY: this script, then rebuild_page.lua once per page of MySQL's orders,
-- then rebuild_finish.lua, which sets ready last. Each step carries the rebuild id this script hands out; a step of a
-- rebuild that was taken over writes nothing.
--
-- A fresh start drops every key the loss left behind (ledger, holdings, surviving reservation records, the request
-- index, the outbox), so nothing that survived can later be released or replayed against the rebuilt ledger. UNLINK
-- frees big hashes off the main thread, so this step costs O(1) whatever the sale's size. It only starts once the
-- outbox is drained (every entry acknowledged by the relays, so in Kafka): an entry still waiting there is an accepted
-- reservation that would otherwise be lost. A rebuild whose runner stopped beating for the lease is taken over, and
-- resumes after the last page it wrote (the page and its cursor are written together).
--
-- The filter of accepted request keys (ADR 0069) is dropped with the request index and made again empty, of the size
-- the lost one had, marked as being refilled: the pages refill it with the index, rebuild_finish marks it usable. A
-- loss that took the filter too leaves the rebuilt sale without one (instances then ask Redis for every keyed attempt).
--
-- The request index goes whole: the single hash here, and every bucket meta's requestBuckets names (ADR 0100) after
-- this step, in pages the adapter sends (ADR 0102: 8,192 keys take longer than a command may): this step writes the
-- drop marker and takes the count out of meta until the last page puts it back, so the pages write the buckets the
-- sale had, and in between reserve.lua finds no count (the single hash, gone) and the rebuild's pages refuse. A loss
-- that took meta leaves no count: then every bucket a sale may have is dropped (the most there can be, most of them
-- absent: a lookup each) and the rebuilt sale keeps the single hash. A rebuild taken over finishes a drop its runner
-- left unfinished (the marker is still there).
--
-- KEYS: 1 meta, 2 stock, 3 holdings, 4 reservations, 5 requests (the request index's base key), 6 outbox,
--       7 in-flight index,
--       8 the filter of accepted request keys, 9 the drop marker
-- ARGV: 1 relay group, 2 lease seconds, 3 since (epoch millis of the caller's clock: the catch-up reads what MySQL
--       changed from then on)
-- Reply: {'LOADED'} | {'BUSY', why} | {'STARTED', rebuildId, cursor ('' from the start), since}

local meta, outbox, group = KEYS[1], KEYS[6], ARGV[1]
if redis.call('HGET', meta, 'ready') == '1' then
    return { 'LOADED' }
end
local now = tonumber(redis.call('TIME')[1])
local running = redis.call('HMGET', meta, 'rebuilding', 'rebuildBeat', 'rebuildCursor', 'rebuildSince')
if running[1] then
    if now - tonumber(running[2]) < tonumber(ARGV[2]) then
        return { 'BUSY', 'rebuild ' .. running[1] .. ' is in progress' }
    end
    local id = fs_new_load_id()
    redis.call('HSET', meta, 'rebuilding', id, 'rebuildBeat', now)
    return { 'STARTED', id, running[3] or '', running[4] }
end

if not fs_outbox_drained(outbox, group) then
    return { 'BUSY', 'the outbox still holds reservations on their way to the order pipeline' }
end
local filter = redis.call('BITFIELD', KEYS[8], 'GET', 'u32', 0, 'GET', 'u8', 32, 'GET', 'u8', 48)
redis.call('UNLINK', KEYS[2], KEYS[3], KEYS[4], KEYS[5], outbox, KEYS[7], KEYS[8])
local buckets = redis.call('HGET', meta, 'requestBuckets')
fs_request_drop_begin(KEYS[9], buckets or FS_REQUEST_BUCKETS_MAX, buckets)
redis.call('HDEL', meta, 'requestBuckets')
if filter[1] > 0 then
    fs_keys_make(KEYS[8], filter[1], filter[2], 0, filter[3])
end
redis.call('HDEL', meta, 'loadId')
local id = fs_new_load_id()
redis.call('HSET', meta, 'rebuilding', id, 'rebuildBeat', now, 'rebuildCursor', '', 'rebuildSince', ARGV[3])
return { 'STARTED', id, '', ARGV[3] }
