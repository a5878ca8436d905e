package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.BitFieldArgs;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shape (bits, hashes, layout) of each sale's filter of accepted request keys, so that the adapter, not Redis,
 * hashes each accepted key into the filter (ADR 83). Each slice of a sale in slices (ADR 109) has a filter of its own,
 * sized from its share of the units, so shapes are kept per slice. The header is read without waiting, at most once
 * per {@link #FRESH_FOR} per slice: until a read came back the script hashes the keys itself. A shape that changed
 * since (a sale archived and loaded again with other stock) is caught by the script, which then hashes the key itself:
 * a stale shape costs Redis time, never a wrong bit.
 */
public final class FilterShapes {

    static final Duration FRESH_FOR = Duration.ofSeconds(10);

    /**
     * A filter's header and the sale's request index bucket count (ADR 100, 0 for the single hash), as the script
     * compares them: "bits:hashes:layout:buckets".
     */
    public record Shape(long bits, int hashes, int layout, int buckets) {

        public String text() {
            return bits + ":" + hashes + ":" + layout + ":" + buckets;
        }

        /** Whether the adapter hashes keys for it: only layout 1, whose key takes one word and one mask. */
        boolean hashedHere() {
            return layout == AcceptedRequestsFilter.WORD_LAYOUT && bits > 0 && hashes > 0;
        }
    }

    /** What the last read found (null: nothing usable) and when it was sent. */
    private record Read(Shape shape, Instant sentAt) {
    }

    private final RedisClusterAsyncCommands<String, String> redis;
    private final Clock clock;
    private final Map<SaleSlice, Read> reads = new ConcurrentHashMap<>();

    public FilterShapes(RedisClusterAsyncCommands<String, String> redis, Clock clock) {
        this.redis = redis;
        this.clock = clock;
    }

    /** The slice's filter shape when the adapter can hash keys for it; null when the script is to do it. */
    public Shape hashedHere(SaleSlice slice) {
        Instant now = clock.instant();
        Read last = reads.get(slice);
        if (last == null || !now.isBefore(last.sentAt().plus(FRESH_FOR))) {
            Read sent = new Read(last == null ? null : last.shape(), now);
            boolean mine = last == null ? reads.putIfAbsent(slice, sent) == null
                    : reads.replace(slice, last, sent);
            if (mine) {
                readHeader(slice, now);
            }
        }
        Shape shape = last == null ? null : last.shape();
        return shape != null && shape.hashedHere() ? shape : null;
    }

    private void readHeader(SaleSlice slice, Instant sentAt) {
        redis.bitfield(RedisKeys.acceptedRequests(slice), BitFieldArgs.Builder
                        .get(BitFieldArgs.unsigned(32), 0).get(BitFieldArgs.unsigned(8), 32)
                        .get(BitFieldArgs.unsigned(8), 48))
                .thenCombine(redis.hget(RedisKeys.meta(slice), RedisKeys.REQUEST_BUCKETS),
                        (header, buckets) -> header == null || header.size() < 3 ? null : shapeOf(header, buckets))
                .whenComplete((shape, failed) -> {
                    // A failed read leaves the script to hash until the next one; an outage shows in the calls.
                    reads.put(slice, new Read(failed != null ? null : shape, sentAt));
                });
    }

    private static Shape shapeOf(List<Long> header, String buckets) {
        return new Shape(header.get(0), Math.toIntExact(header.get(1)), Math.toIntExact(header.get(2)),
                buckets == null ? 0 : Integer.parseInt(buckets));
    }
}
