package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.AcceptedRequestsFilter;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;

import java.util.ArrayList;
import java.util.List;

/**
 * Every Redis key name and hash field the adapter uses. The Lua scripts in {@code resources/lua/} build the
 * same hash fields from the same parts; the only key names they build are the request index's buckets, from its base
 * key in {@code KEYS} (ADR 0100).
 *
 * <p>All keys of one activity carry the hash tag {@code {activityId}}, so they live in one Redis Cluster slot
 * and one script may touch them together. An activity has eight keys of sale data (the request index counted once:
 * its buckets, fixed in number for the sale, share its hash tag) and three of bookkeeping, whatever its number of SKUs,
 * buyers or reservations, and each script receives every other key it touches in {@code KEYS}: data
 * that only a stored value leads to (the reservation a requestId points at, the buyer of a reservation being released)
 * lives in hash fields of these fixed keys, never under a key name a script would have to make up.
 *
 * <pre>
 * fs:{a}:meta          hash    ready         "1" once warm_up.lua has loaded everything (written last)
 *                              startsAtSec, startsAtNano, endsAtSec, endsAtNano
 *                                            the window [startsAt, endsAt) as epoch seconds + nano-of-second,
 *                                            exact to the nanosecond like {@link java.time.Instant}
 *                              paused        "1" while an operator has the sale paused, else "0" or absent
 *                                            (ADR 79; set by warm-up and rebuild from the record, and by sale_terms.lua)
 *                              limit         the activity's per-user limit
 *                              skus          SKU ids in item order, comma-separated
 *                              requestBuckets the request index's bucket count, fixed by warm_up.lua from the
 *                                            sale's units for its life (ADR 0100); absent: the single hash
 *                              requestBucketsChecked n: buckets 1 .. n found absent by a warm-up that looks at
 *                                            them a page a call (ADR 0106); gone once the sale is loaded
 *                              tracksInFlight "1" when loaded by scripts that keep &lt;sku&gt;:held and the in-flight
 *                                            index (reconciliation then reads those instead of every record)
 *                              slices        n, the sale's slice count (ADR 109), written by warm_up.lua with the
 *                                            rest of meta in each slice of a sale of n &gt; 1 slices (and by
 *                                            rebuild_finish.lua in a slice rebuilt, ADR 111); absent: 1 (a sale of
 *                                            one slice is loaded as before slices). reserve.lua compares it with the
 *                                            count the attempts' ids name
 * fs:{a}:stock         hash    &lt;sku&gt;:total, &lt;sku&gt;:reserved, &lt;sku&gt;:sold
 *                              &lt;sku&gt;:limit       effective per-user limit (item override, else activity's)
 *                              &lt;sku&gt;:segments    number of available counters, 1..16
 *                              &lt;sku&gt;:avail:&lt;i&gt;   available units of segment i (1-based); their sum is the
 *                                                SKU's available = total - reserved - sold
 *                              &lt;sku&gt;:cursor      rotating first segment of the next deduction (segmented SKUs)
 *                              &lt;sku&gt;:held        sum of every buyer's holding of the SKU, moved with each holding
 *                              &lt;sku&gt;:adj:&lt;id&gt;    "1" once the audited stock adjustment &lt;id&gt; is in the total
 *                                                (applied by adjust.lua, or included by a repair or a rebuild)
 *                              &lt;sku&gt;:xout:&lt;id&gt;   units stock transfer &lt;id&gt; took out of this slice's total and
 *                                                available (transfer_out.lua, ADR 109; 0 when none were
 *                                                available): the first take's answer, which a repeat returns
 *                              &lt;sku&gt;:xin:&lt;id&gt;    units stock transfer &lt;id&gt; added to this slice's total and
 *                                                available (transfer_in.lua, ADR 109); a repeat adds nothing
 * fs:{a}:holdings      hash    &lt;buyer&gt;:&lt;sku&gt;     units the buyer holds (reserved + ordered); removed at 0
 * fs:{a}:reservations  hash    &lt;id&gt; -&gt; the reservation's record, one field (ADR 70):
 *                              status letter | buyer | requestId | lines "sku:quantity,sku:quantity" in request
 *                              order | reservedAt | broker position | cancelledAt (the buyer's, while RESERVED) |
 *                              redrivenAt, instants exact to the nanosecond, absent trailing parts left out
 *                              ({@link ReservationRecord} reads it). Only while the database of record has no order
 *                              of it (ADR 71): confirm.lua and settle_batch.lua delete an ordered one's record (the
 *                              request entry stays), a restore of a closed order leaves its status letter alone
 *                              (C or E, a tombstone a second restore finds), a rebuild writes no record of an
 *                              ORDERED or PAID order and the letter of a CANCELLED or EXPIRED one
 * fs:{a}:requests:&lt;k&gt;  hash    &lt;buyer&gt;:&lt;requestId&gt;  the reservation the accepted attempt made, in bucket
 *                              k = 1 + (first 32-bit word of the field's SHA-1) mod meta's requestBuckets
 *                              ({@link #requestKey}, ADR 0100: small hashes Redis keeps as listpacks); a sale warmed
 *                              before ADR 0100 has no requestBuckets and keeps every entry in fs:{a}:requests.
 *                              Entries (refusals leave none) are kept after the record goes: a keyed retry is answered from
 *                              the order and a restore tells an order from a reservation never held. The value is
 *                              the id's token, "" when the token is the request id (no key sent), a whole id when
 *                              written before ADR 71 ({@link #requestValue}, {@link #requestedReservation})
 * fs:{a}:keys          string  the filter of accepted request keys (ADR 0069): a Bloom filter of every
 *                              &lt;buyer&gt;:&lt;requestId&gt; the requests index held since it was made, so always a
 *                              superset of that index while usable. An 8-byte header (u32 bits m at bit 0, u8 hash
 *                              count k at bit 32, u8 state at bit 40: 1 usable, 0 being refilled by a rebuild, u8
 *                              layout at bit 48: 1 a key's bits in one 32-bit word (ADR 0083), 0 anywhere), then
 *                              m bits; made by warm_up.lua (sized from the sale's units), set by reserve.lua and
 *                              rebuild_page.lua with each index entry, read whole by {@code GET}. A sale loaded
 *                              before it existed has none. Positions: {@code internal.AcceptedRequestsFilter}
 * fs:{a}:inflight      hash    &lt;id&gt; -&gt; "1" for every reservation MySQL has not settled yet: RESERVED, FAILED
 *                              until its units are back, CANCELLED by the buyer until MySQL recorded it
 * fs:{a}:outbox        stream  one entry per reserve call: each reservation it accepted as a field, its id, whose
 *                              value is its record as {@link ReservationRecord} reads it (ADR 107); entries of older
 *                              versions hold one reservation: reservationId and record (ADR 105), or reservationId,
 *                              buyerId, requestId, lines and reservedAt (packed, exact), or also
 *                              type=reserved, activityId, at (epoch millis) and reservedAt as ISO-8601
 *                              ({@code internal.OutboxEntryDecoder} reads them all, ADR 68);
 *                              read by the consumer group {@value #OUTBOX_GROUP}, trimmed only below what every
 *                              group has acknowledged
 * fs:{a}:recovery      hash    partition -&gt; end offset of the reservations topic when a lost sale's recovery began
 * fs:{a}:audit         hash    &lt;sku&gt; -&gt; HSCAN cursor of the rolling audit over fs:{a}:holdings (ADR 59)
 * fs:{a}:drop          string  the request index's buckets an archive or a rebuild's begin still drops, in pages
 *                              (ADR 0102): "&lt;buckets&gt;:&lt;count meta gets back&gt;:&lt;token&gt;"; the last
 *                              page deletes it. While it is there no warm-up loads and no rebuild page writes
 * </pre>
 *
 * <p>A sale of {@code n} slices (ADR 109) has this set of keys once per slice, each slice under its own hash tag
 * ({@link #tag(SaleSlice)}, so its own slot): slice 0 keeps the tag {@code {a}} above, so a sale of one slice, and
 * every sale made before slices, has exactly the keys above; slice {@code k} (1 &lt;= k &lt; n) has them under the
 * tag {@code {a#k.s}}: {@code fs:{a#k.s}:meta}, {@code fs:{a#k.s}:stock} and so on. The 16,384 slots are cut into
 * {@code n} ranges as {@code redis-cli --cluster create} cuts them over {@code n} masters (range {@code r} starts at
 * {@code round(r * 16384 / n)}); slice 0 sits in the range its slot falls in, slice {@code k} takes the k-th of the
 * other ranges in ascending order, with the smallest salt {@code s >= 0} whose slot lies there ({@code SliceTags}).
 * Each key method taking a {@link SaleSlice} names the slice's key; the one taking an {@link ActivityId}, slice 0's.
 * The outbox registry lists such a sale once, by its activity id: the relays read every slice's outbox
 * ({@link RedisReservationOutbox}).
 *
 * <p>Beside them, short-lived keys of the buyers' rate-limit buckets at the sale, in the same slot so that
 * {@code reserve.lua} takes a token in the step that decides the attempt (ADR 0060); the adapter names them in
 * {@code KEYS} like every other key (one call of {@code reserve.lua} decides a batch of the sale's attempts, ADR 0068,
 * and names the bucket of each attempt in it), and each expires seconds after its bucket would be full again:
 * <pre>
 * fs:{a}:rl:&lt;buyer&gt;   string  the buyer's bucket as the GCRA's theoretical arrival time, microseconds of Redis TIME
 * </pre>
 *
 * <p>One key lives outside every activity's hash tag, so it sits in a slot of its own:
 * <pre>
 * fs:outbox:activities  set    activity ids whose outbox relays read ({@link #outboxActivities()}); a warm-up adds
 *                              its activity. A deployment (or a test run) sharing the Redis with others may use a
 *                              registry key of its own, see the adapters' constructors.
 * </pre>
 *
 * <p>Four pub/sub channels per deployment, named after its registry (channels are cluster-wide, so no hash tag), the
 * message an activity id: {@link #stockReturnsChannel(String)} (units may be buyable again),
 * {@link #saleChangesChannel(String)} (a sale changed in the database of record, ADR 0066) and
 * {@link #outboxNewsChannel(String)} (an outbox has entries no relay has read yet, ADR 0067) and
 * {@link #blocklistChangesChannel(String)} (the blocklist changed, ADR 0081; its message is a fixed word).
 *
 * <p>Ids never contain {@code :}, {@code ,} or {@code |} (they are {@code [A-Za-z0-9_-]}, reservation ids add
 * {@code .}), so every field name, the encoded lines and a reservation's record read back unambiguously.
 */
public final class RedisKeys {

    public static final String META_READY = "ready";
    public static final String META_SKUS = "skus";
    /** Field of meta: the sale's slice count in each slice of a sale of more than one (ADR 109); absent: one. */
    public static final String META_SLICES = "slices";

    /** The consumer group every relay reads the outbox streams with. */
    public static final String OUTBOX_GROUP = "relays";

    /*
     * The field names of the outbox's older shapes, an entry a reservation, which OutboxEntryDecoder still reads; since
     * ADR 107 an entry's fields are its reservations' ids, each with its record.
     */
    public static final String OUTBOX_TYPE = "type";
    public static final String OUTBOX_TYPE_RESERVED = "reserved";
    public static final String OUTBOX_RESERVATION_ID = "reservationId";
    public static final String OUTBOX_ACTIVITY_ID = "activityId";
    public static final String OUTBOX_BUYER_ID = "buyerId";
    public static final String OUTBOX_REQUEST_ID = "requestId";
    public static final String OUTBOX_LINES = "lines";
    public static final String OUTBOX_AT_MILLIS = "at";
    public static final String OUTBOX_RESERVED_AT = "reservedAt";
    /** The reservation's record as the records hash keeps it when accepted (ADR 105). */
    public static final String OUTBOX_RECORD = "record";

    private RedisKeys() {
    }

    public static String meta(ActivityId activityId) {
        return key(activityId, "meta");
    }

    public static String stock(ActivityId activityId) {
        return key(activityId, "stock");
    }

    public static String holdings(ActivityId activityId) {
        return key(activityId, "holdings");
    }

    public static String reservations(ActivityId activityId) {
        return key(activityId, "reservations");
    }

    /**
     * The request index's base key: the single hash of a sale warmed before ADR 0100, and the prefix of its buckets
     * ({@link #requestBucket}) for every sale since.
     */
    public static String requests(ActivityId activityId) {
        return key(activityId, "requests");
    }

    /** Field of {@link #meta(ActivityId)}: the request index's bucket count, fixed by warm-up (ADR 0100). */
    public static final String REQUEST_BUCKETS = "requestBuckets";

    /** Bucket {@code k} (1-based) of the request index (ADR 0100), in the activity's slot like every key of it. */
    public static String requestBucket(ActivityId activityId, int bucket) {
        return requests(activityId) + ":" + bucket;
    }

    /**
     * The key holding a request field's entry: with {@code buckets} 0 (no count in meta) the single hash, else bucket
     * 1 + (the first 32-bit word of the field's SHA-1, unsigned) mod buckets, as {@code fs_request_key} computes it.
     */
    public static String requestKey(ActivityId activityId, int buckets, String field) {
        return buckets == 0 ? requests(activityId) : requestBucket(activityId, requestBucketOf(field, buckets));
    }

    /** The bucket (1-based) of a request field among {@code buckets} > 0, as {@code fs_request_key} computes it. */
    public static int requestBucketOf(String field, int buckets) {
        return requestBucketOf(AcceptedRequestsFilter.firstWord(AcceptedRequestsFilter.digest(field)), buckets);
    }

    /** As {@link #requestBucketOf(String, int)}, from the first word of the field's SHA-1 the caller already has. */
    public static int requestBucketOf(long firstWord, int buckets) {
        return (int) (firstWord % buckets) + 1;
    }

    /** Every key of the request index of a sale of {@code buckets} buckets: the single hash, then each bucket. */
    public static List<String> requestKeys(ActivityId activityId, int buckets) {
        return requestKeys(sliceZero(activityId), buckets);
    }

    /**
     * The marker of a drop of the request index's buckets not finished yet (ADR 0102, {@link RequestIndexDrop}): not
     * among {@link #archiveKeys}, since an archive writes it; its drop's last page deletes it.
     */
    public static String requestsDrop(ActivityId activityId) {
        return key(activityId, "drop");
    }

    /** The filter of accepted request keys (see the class comment, ADR 0069). */
    public static String acceptedRequests(ActivityId activityId) {
        return key(activityId, "keys");
    }

    /** The reservations of the activity MySQL has not settled yet (see the class comment): what reconciliation pages over. */
    public static String inFlight(ActivityId activityId) {
        return key(activityId, "inflight");
    }

    public static String outbox(ActivityId activityId) {
        return key(activityId, "outbox");
    }

    /**
     * Where the broker's log ended when the recovery of a lost activity began (ADR 30): partition -> offset. Removed by
     * the rebuild it gates; not among {@link #activityKeys}, which a rebuild drops (the mark must outlive the rebuild's
     * first step), but among {@link #archiveKeys}: a lost sale that ends before it is rebuilt leaves none behind.
     */
    public static String recovery(ActivityId activityId) {
        return key(activityId, "recovery");
    }

    /**
     * Where the rolling audit of holdings stands (ADR 59): SKU -> HSCAN cursor over {@link #holdings}. Not sale data: a
     * rebuild keeps it (a cursor is only a position, any value is safe on any hash), an archive deletes it.
     */
    public static String holdingsAudit(ActivityId activityId) {
        return key(activityId, "audit");
    }

    /**
     * Every key of one activity's sale data, outbox first, then meta and the request index's base key (archive.lua
     * reads them there): what a rebuild drops. A new per-activity key belongs here too. The request index's buckets
     * ({@link #requestBucket}) are not listed: their count is in meta, and the scripts that drop the index drop each
     * of them (ADR 0100).
     */
    public static List<String> activityKeys(ActivityId activityId) {
        return activityKeys(sliceZero(activityId));
    }

    /**
     * What an archive deletes, outbox first: every key of the activity, the mark of a recovery in progress and the
     * audit's cursor.
     */
    public static List<String> archiveKeys(ActivityId activityId) {
        return archiveKeys(sliceZero(activityId));
    }

    /** The default registry of activities whose outbox relays read: no hash tag, it spans every activity. */
    public static String outboxActivities() {
        return "fs:outbox:activities";
    }

    /**
     * The pub/sub channel on which instances of one deployment (one outbox registry) announce returned units; the
     * message is the activity id. Pub/sub channels are cluster-wide, so it needs no hash tag.
     */
    public static String stockReturnsChannel(String outboxRegistry) {
        return outboxRegistry + ":stock-returns";
    }

    /**
     * The pub/sub channel on which instances of one deployment announce that a sale changed in the database of record
     * (created, stock adjusted, archived); the message is the activity id.
     */
    public static String saleChangesChannel(String outboxRegistry) {
        return outboxRegistry + ":sale-changes";
    }

    /**
     * The pub/sub channel on which instances of one deployment announce that the blocklist changed in the database of
     * record (ADR 0081); the message is a fixed word, the list is read again whole.
     */
    public static String blocklistChangesChannel(String outboxRegistry) {
        return outboxRegistry + ":blocklist";
    }

    /**
     * The pub/sub channel on which instances of one deployment announce that an activity's outbox has news (entries no
     * relay has read yet); the message is the activity id. Cluster-wide like every channel, so it needs no hash tag.
     */
    public static String outboxNewsChannel(String outboxRegistry) {
        return outboxRegistry + ":news";
    }

    /** Field of {@link #holdings(ActivityId)}. */
    public static String holdingField(BuyerId buyerId, SkuId skuId) {
        return buyerId.value() + ":" + skuId.value();
    }

    /** Field of {@link #requests(ActivityId)}. */
    public static String requestField(BuyerId buyerId, RequestId requestId) {
        return buyerId.value() + ":" + requestId.value();
    }

    /**
     * Value of {@link #requests(ActivityId)} for the reservation a request made (ADR 71): only what the field and the
     * slice do not say already, its token (what follows the id's last dot: the slice's prefix {@code <a>}, or
     * {@code <a>.<k>of<n>} in a sale of slices, is the same for every id of the slice), or nothing when the token is
     * the request id (an attempt without a key). As {@code fs_request_value} in {@code lua/lib/ledger.lua}.
     */
    public static String requestValue(ReservationId reservationId, RequestId requestId) {
        String token = reservationId.value().substring(reservationId.value().lastIndexOf('.') + 1);
        return token.equals(requestId.value()) ? "" : token;
    }

    /**
     * The reservation a value of {@link #requests(ActivityId)} names: a value starting with '.' holds a whole id not of
     * the sale's form (which only the scripts' robustness tests send), one holding '.' elsewhere a whole id as written
     * before ADR 71. As {@code fs_request_id}.
     */
    public static ReservationId requestedReservation(ActivityId activityId, RequestId requestId, String value) {
        return requestedReservation(sliceZero(activityId), requestId, value);
    }

    /**
     * As {@link #requestedReservation(ActivityId, RequestId, String)}, for a value of the slice's own request index: a
     * token names the slice's id, {@code <a>.<k>of<n>.<token>} in a sale of slices (ADR 109).
     */
    public static ReservationId requestedReservation(SaleSlice slice, RequestId requestId, String value) {
        if (value.startsWith(".")) {
            return new ReservationId(value.substring(1));
        }
        if (value.indexOf('.') >= 0) {
            return new ReservationId(value);
        }
        return ReservationId.of(slice, value.isEmpty() ? requestId.value() : value);
    }

    /** Field of {@link #stock(ActivityId)}, e.g. {@code <sku>:reserved}. */
    public static String stockField(SkuId skuId, String figure) {
        return skuId.value() + ":" + figure;
    }

    /** Field of {@link #stock(ActivityId)} marking a stock adjustment as included in the SKU's total. */
    public static String adjustmentField(SkuId skuId, long adjustmentId) {
        return skuId.value() + ":adj:" + adjustmentId;
    }

    /** Field of {@link #stock(ActivityId)} holding one segment's available units; segments count from 1. */
    public static String segmentField(SkuId skuId, int segment) {
        return skuId.value() + ":avail:" + segment;
    }

    /**
     * Field of {@link #stock(SaleSlice)} keeping what stock transfer {@code transferId} took out of the slice: the
     * first take's answer, which a repeat returns (ADR 109).
     */
    public static String transferOutField(SkuId skuId, long transferId) {
        return skuId.value() + ":xout:" + transferId;
    }

    /** Field of {@link #stock(SaleSlice)} marking that stock transfer {@code transferId} added its units to the slice. */
    public static String transferInField(SkuId skuId, long transferId) {
        return skuId.value() + ":xin:" + transferId;
    }

    /** The buyer's rate-limit bucket at the activity, taken by {@code reserve.lua} (ADR 0060). */
    public static String buyerBucket(ActivityId activityId, BuyerId buyerId) {
        return key(activityId, "rl:" + buyerId.value());
    }

    // ---- One slice of a sale (ADR 109): the keys above under the slice's own hash tag ----

    /** The text between the braces of every key of the slice: the activity id for slice 0 (see the class comment). */
    public static String tag(SaleSlice slice) {
        return SliceTags.of(slice);
    }

    public static String meta(SaleSlice slice) {
        return key(slice, "meta");
    }

    public static String stock(SaleSlice slice) {
        return key(slice, "stock");
    }

    public static String holdings(SaleSlice slice) {
        return key(slice, "holdings");
    }

    public static String reservations(SaleSlice slice) {
        return key(slice, "reservations");
    }

    public static String requests(SaleSlice slice) {
        return key(slice, "requests");
    }

    public static String requestBucket(SaleSlice slice, int bucket) {
        return requests(slice) + ":" + bucket;
    }

    public static String requestKey(SaleSlice slice, int buckets, String field) {
        return buckets == 0 ? requests(slice) : requestBucket(slice, requestBucketOf(field, buckets));
    }

    public static List<String> requestKeys(SaleSlice slice, int buckets) {
        List<String> keys = new ArrayList<>(buckets + 1);
        keys.add(requests(slice));
        for (int k = 1; k <= buckets; k++) {
            keys.add(requestBucket(slice, k));
        }
        return keys;
    }

    public static String requestsDrop(SaleSlice slice) {
        return key(slice, "drop");
    }

    public static String acceptedRequests(SaleSlice slice) {
        return key(slice, "keys");
    }

    public static String inFlight(SaleSlice slice) {
        return key(slice, "inflight");
    }

    public static String outbox(SaleSlice slice) {
        return key(slice, "outbox");
    }

    public static String recovery(SaleSlice slice) {
        return key(slice, "recovery");
    }

    public static String holdingsAudit(SaleSlice slice) {
        return key(slice, "audit");
    }

    public static List<String> activityKeys(SaleSlice slice) {
        return List.of(outbox(slice), meta(slice), requests(slice), stock(slice), holdings(slice),
                reservations(slice), acceptedRequests(slice), inFlight(slice));
    }

    public static List<String> archiveKeys(SaleSlice slice) {
        List<String> keys = new ArrayList<>(activityKeys(slice));
        keys.add(recovery(slice));
        keys.add(holdingsAudit(slice));
        return List.copyOf(keys);
    }

    public static String buyerBucket(SaleSlice slice, BuyerId buyerId) {
        return key(slice, "rl:" + buyerId.value());
    }

    /** Slice 0 of a sale, whose keys are the activity's as they were before slices, whatever the sale's count. */
    static SaleSlice sliceZero(ActivityId activityId) {
        return new SaleSlice(activityId, 0, SaleSlices.ONE);
    }

    private static String key(SaleSlice slice, String part) {
        return key(SliceTags.of(slice), part);
    }

    private static String key(ActivityId activityId, String part) {
        return key(activityId.value(), part);
    }

    private static String key(String tag, String part) {
        return "fs:{" + tag + "}:" + part;
    }
}
