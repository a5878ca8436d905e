package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.adapter.redis.internal.ReadPace;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.testsupport.CommandStats;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** Archiving on the real Redis: exact counts, a drained outbox before anything goes, and only the one sale's keys go. */
@Timeout(120)
class RedisActivityArchiveIT {

    private static final int ATTEMPTS_PER_BUYER = 300;

    private final OutboxFixture fixture = new OutboxFixture();
    private final RedisClusterCommands<String, String> redis = fixture.redis;
    private final RedisActivityArchive archive = new RedisActivityArchive(SharedRedis.commands(), fixture.registry);
    /** Where the application asks whether an outbox is drained; the archive's delete checks the same in its script. */
    private final RelayedEventsPort relayed = new RedisRelayedEvents(SharedRedis.commands(), ReadPace.NONE);
    private final RedisHotStoreRebuild rebuild = SharedRedis.rebuild();
    private final List<ActivityId> extraActivities = new ArrayList<>();

    @AfterEach
    void forgetEverything() {
        extraActivities.forEach(SharedRedis::forget);
        fixture.close();
    }

    @Test
    void givenReservationsInEveryStatus_thenOnlyTheReservedOnesAreCountedAndOnlyTheCancelledOnesListed() {
        Activity sale = fixture.warmedUpSale("count", 10);
        List<Reservation> made = fixture.reserveEach(sale.id(), 8);
        made.subList(0, 3).forEach(reservation -> fixture.stock.confirm(reservation.id()));
        made.subList(3, 5).forEach(reservation -> fixture.stock.release(reservation.id()));
        fixture.stock.fail(made.get(5).id());

        assertThat(archive.reservedCount(sale.id())).isEqualTo(2);
        assertThat(archive.cancelledReservations(sale.id())).containsExactlyInAnyOrder(made.get(3).id(), made.get(4).id());

        made.subList(6, 8).forEach(reservation -> fixture.stock.confirm(reservation.id()));
        assertThat(archive.reservedCount(sale.id())).isZero();
    }

    @Test
    void givenAHashTooBigForOneScanStep_thenTheCountIsStillExact() {
        Activity sale = fixture.warmedUpSale("count-big", 700);
        List<Reservation> made = fixture.reserveEach(sale.id(), 700);
        for (int i = 0; i < made.size(); i += 3) {
            fixture.stock.confirm(made.get(i).id());
        }
        assertThat(redis.objectEncoding(RedisKeys.reservations(sale.id()))).as("scanned in steps, not at once")
                .isEqualTo("hashtable");

        assertThat(archive.reservedCount(sale.id())).isEqualTo(700 - 234);
        assertThat(archive.cancelledReservations(sale.id())).isEmpty();
    }

    @Test
    void givenAnActivityThatIsNotLoaded_thenNothingIsReservedItsOutboxIsDrainedAndNoKeyIsMade() {
        ActivityId unknown = fixture.sale("absent", 1).id();

        assertThat(archive.reservedCount(unknown)).isZero();
        assertThat(archive.cancelledReservations(unknown)).isEmpty();
        assertThat(relayed.outboxDrained(unknown)).isTrue();
        assertThat(existing(unknown)).isEmpty();
    }

    @Test
    void theOutboxIsDrainedOnlyWhenNoEntryIsUnreadOrPending() {
        Activity sale = fixture.warmedUpSale("drain", 10);
        assertThat(drained(sale)).as("no stream yet").isTrue();

        fixture.reserveEach(sale.id(), 3);
        assertThat(drained(sale)).as("unread, no relay group yet").isFalse();

        List<OutboxEntry> firstTwo = fixture.outbox.readNew(sale.id(), "r1", 2);
        assertThat(drained(sale)).as("two pending, one unread").isFalse();

        fixture.outbox.acknowledge(sale.id(), firstTwo);
        assertThat(fixture.pending(sale.id())).isZero();
        assertThat(drained(sale)).as("one unread").isFalse();

        List<OutboxEntry> last = fixture.outbox.readNew(sale.id(), "r1", 10);
        assertThat(drained(sale)).as("one pending").isFalse();

        fixture.outbox.acknowledge(sale.id(), last);
        assertThat(drained(sale)).as("everything acknowledged").isTrue();

        fixture.reserve(sale.id(), "late-buyer");
        assertThat(drained(sale)).as("a new entry").isFalse();
    }

    /**
     * The relay's answer and the rebuild gate's for the sale's one slice, which read the outbox alike (a few commands,
     * not the backlog): one answer.
     */
    private boolean drained(Activity sale) {
        boolean relayedSays = relayed.outboxDrained(sale.id());
        assertThat(rebuild.outboxDrained(new SaleSlice(sale.id(), 0, SaleSlices.ONE)))
                .as("the rebuild gate's answer").isEqualTo(relayedSays);
        return relayedSays;
    }

    @Test
    void givenABacklogOfSeveralPages_whenAskedWhetherTheOutboxIsDrained_thenAFewCommandsAnswerWhateverItsLength() {
        Activity sale = fixture.warmedUpSale("backlog", 1_000);
        fixture.reserveEach(sale.id(), 3 * PagedReads.PAGE);
        List<OutboxEntry> firstPage = fixture.outbox.readNew(sale.id(), "r1", PagedReads.PAGE);
        fixture.outbox.acknowledge(sale.id(), firstPage.subList(0, PagedReads.PAGE - 1));

        Map<String, Long> pending = commandsFor(sale, () -> assertThat(drained(sale)).as("one pending").isFalse());
        fixture.outbox.acknowledge(sale.id(), firstPage.subList(PagedReads.PAGE - 1, PagedReads.PAGE));
        Map<String, Long> unread = commandsFor(sale, () -> assertThat(drained(sale)).as("two pages unread").isFalse());

        // the relay's and the rebuild gate's answers each: EXISTS, XINFO GROUPS, XPENDING's summary, one XRANGE of one
        assertThat(pending).as("one pending: the summary answers").containsEntry("xpending", 2L)
                .doesNotContainKey("xrange");
        assertThat(unread).as("none pending: the first entry after the last delivered answers")
                .containsEntry("xpending", 2L).containsEntry("xrange", 2L);
        assertThat(unread.values().stream().mapToLong(Long::longValue).sum()).as(unread.toString()).isEqualTo(8);
    }

    private Map<String, Long> commandsFor(Activity sale, Runnable asked) {
        Map<String, Long> before = CommandStats.calls(SharedRedis.commandStatsOf(RedisKeys.outbox(sale.id())));
        asked.run();
        return CommandStats.between(before, CommandStats.calls(SharedRedis.commandStatsOf(RedisKeys.outbox(sale.id()))));
    }

    @Test
    void givenAStreamWithEntriesButOnlyAnotherGroup_thenItIsNotDrained() {
        Activity sale = fixture.warmedUpSale("other-group", 10);
        fixture.reserve(sale.id(), "alice");
        redis.xgroupCreate(XReadArgs.StreamOffset.from(RedisKeys.outbox(sale.id()), "$"), "auditors");

        assertThat(relayed.outboxDrained(sale.id())).isFalse();
    }

    @Test
    void givenAnOutboxNotDrained_whenDeleting_thenNothingIsDeletedAndTheActivityStaysRegistered() {
        Activity sale = fixture.warmedUpSale("refused", 10);
        Reservation reservation = fixture.reserve(sale.id(), "alice");
        fixture.stock.confirm(reservation.id());
        fixture.reserve(sale.id(), "bob");
        Map<String, String> before = dump(sale.id());

        assertThat(archive.delete(sale.id())).isFalse();

        assertThat(existing(sale.id())).containsExactlyInAnyOrderElementsOf(saleKeys(sale.id()));
        assertThat(dump(sale.id())).containsExactlyInAnyOrderEntriesOf(before);
        assertThat(redis.sismember(fixture.registry, sale.id().value())).isTrue();
    }

    @Test
    void givenADrainedSale_whenDeleted_thenExactlyItsKeysAndRegistrationGoAndANeighbourSurvivesUntouched() {
        Activity sale = fixture.warmedUpSale("gone", 10);
        Activity canary = canaryOf(sale);
        sellAndRelay(sale, 4);
        sellAndRelay(canary, 3);
        fixture.reserve(canary.id(), "still-reserved");
        Map<String, String> canaryBefore = dump(canary.id());
        assertThat(existing(sale.id())).as("every key, the stream emptied by trimming but still there; the in-flight"
                        + " index and the records emptied by the confirms (ADR 71), so Redis dropped them")
                .containsExactlyInAnyOrderElementsOf(saleKeys(sale.id()).stream()
                        .filter(key -> !key.equals(RedisKeys.inFlight(sale.id()))
                                && !key.equals(RedisKeys.reservations(sale.id()))).toList());

        boolean deleted = archive.delete(sale.id());

        assertThat(deleted).isTrue();
        assertThat(existing(sale.id())).isEmpty();
        assertThat(keysMatching("fs:{" + sale.id().value() + "}*")).isEmpty();
        assertThat(redis.smembers(fixture.registry)).containsExactly(canary.id().value());
        assertThat(dump(canary.id())).containsExactlyInAnyOrderEntriesOf(canaryBefore);
        assertThat(fixture.stock.stock(canary.id())).isPresent();
        assertThat(fixture.stock.stock(sale.id())).isEmpty();
        assertThat(fixture.reserve(sale.id(), "too-late")).isNull();
        assertThat(existing(sale.id())).as("a refused attempt writes nothing").isEmpty();
    }

    @Test
    void deletingTwiceOrDeletingWhatWasNeverLoadedIsHarmless() {
        Activity sale = fixture.warmedUpSale("twice", 10);
        Activity canary = canaryOf(sale);
        sellAndRelay(sale, 2);
        Map<String, String> canaryBefore = dump(canary.id());

        assertThat(archive.delete(sale.id())).isTrue();
        assertThat(archive.delete(sale.id())).isTrue();
        assertThat(archive.delete(fixture.sale("never", 1).id())).isTrue();

        assertThat(existing(sale.id())).isEmpty();
        assertThat(redis.smembers(fixture.registry)).containsExactly(canary.id().value());
        assertThat(dump(canary.id())).containsExactlyInAnyOrderEntriesOf(canaryBefore);
    }

    @Test
    void givenASaleOfTheMostBuckets_whenDeleted_thenNoBucketIsLeft() {
        Activity sale = fixture.warmedUpSale("most-buckets", 262_144);
        assertThat(RedisRequestIndex.buckets(redis, sale.id())).isEqualTo(8_192);
        fillEveryBucket(sale.id());

        assertThat(archive.delete(sale.id())).isTrue();

        assertThat(existing(sale.id())).isEmpty();
    }

    @Test
    void givenAnArchiveThatStoppedAfterItsAtomicStep_thenTheSaleIsGoneAndARetryDropsTheBucketsLeft() {
        Activity sale = fixture.warmedUpSale("stopped", 40_000);
        int buckets = RedisRequestIndex.buckets(redis, sale.id());
        assertThat(buckets).as("more than one page").isGreaterThan(RequestIndexDrop.PAGE);
        fillEveryBucket(sale.id());

        assertThat(atomicStepOfArchive(sale.id())).isEqualTo(1L);
        assertThat(fixture.stock.stock(sale.id())).isEmpty();
        assertThat(fixture.reserve(sale.id(), "during-the-drop")).as("NOT_READY").isNull();
        assertThat(existing(sale.id())).as("the buckets and the drop's marker")
                .hasSize(buckets + 1).contains(RedisKeys.requestsDrop(sale.id()));
        // Stopped again after the first page of the drop.
        String marker = redis.get(RedisKeys.requestsDrop(sale.id()));
        assertThat(dropPage(sale.id(), marker, 1, RequestIndexDrop.PAGE, false)).isEqualTo(1L);
        assertThat(existing(sale.id())).hasSize(buckets - RequestIndexDrop.PAGE + 1);

        assertThat(archive.delete(sale.id())).as("the retry").isTrue();

        assertThat(existing(sale.id())).isEmpty();
    }

    @Test
    void givenADropTakenOver_thenALatePageOfTheEarlierOneUnlinksNothing() {
        Activity sale = fixture.warmedUpSale("taken-over", 40_000);
        fillEveryBucket(sale.id());
        atomicStepOfArchive(sale.id());
        String marker = redis.get(RedisKeys.requestsDrop(sale.id()));
        redis.set(RedisKeys.requestsDrop(sale.id()), marker + "-another");

        assertThat(dropPage(sale.id(), marker, 1, 10, true)).isZero();
        assertThat(redis.exists(RedisKeys.requestBucket(sale.id(), 1))).isEqualTo(1L);
        assertThat(archive.delete(sale.id())).as("the drop's owner now").isTrue();
        assertThat(existing(sale.id())).isEmpty();

        redis.hset(RedisKeys.requestBucket(sale.id(), 1), "written-after-the-drop", "");
        assertThat(dropPage(sale.id(), marker, 1, 10, true)).as("nor one of a drop finished").isZero();
        assertThat(redis.exists(RedisKeys.requestBucket(sale.id(), 1))).isEqualTo(1L);
        redis.del(RedisKeys.requestBucket(sale.id(), 1));
    }

    @Test
    void givenADropLeftUnfinished_whenTheSaleIsWarmedUpAgain_thenTheDropEndsFirstAndNoOldEntryIsReplayed() {
        Activity sale = fixture.warmedUpSale("warmed-again", 40_000);
        Reservation before = fixture.reserve(sale.id(), "alice");
        fixture.outbox.acknowledge(sale.id(), fixture.outbox.readNew(sale.id(), "relay", 100));
        fixture.stock.confirm(before.id());
        assertThat(atomicStepOfArchive(sale.id())).isEqualTo(1L);

        fixture.stock.warmUp(sale);

        assertThat(redis.exists(RedisKeys.requestsDrop(sale.id()))).isZero();
        assertThat(RedisRequestIndex.size(redis, sale.id())).isZero();
        Reservation again = fixture.reserve(sale.id(), "alice");
        assertThat(again).as("a new reservation, not the archived sale's answered as settled").isNotNull();
        assertThat(again.id()).isNotEqualTo(before.id());
    }

    @Test
    void givenBuyersStillReservingWhileTheArchiveTries_thenEveryAcceptedReservationReachedTheRelaysBeforeTheKeysWent()
            throws Exception {
        Activity sale = fixture.warmedUpSale("race", 100_000);
        var accepted = new ConcurrentLinkedQueue<Reservation>();
        var delivered = new ConcurrentLinkedQueue<OutboxEntry>();
        var deleted = new AtomicBoolean();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            var buyers = new ArrayList<Future<?>>();
            for (int b = 0; b < 2; b++) {
                String prefix = "b" + b;
                buyers.add(pool.submit(() -> {
                    for (int n = 0; n < ATTEMPTS_PER_BUYER; n++) {
                        Reservation reservation = fixture.reserve(sale.id(), prefix + "-" + n);
                        if (reservation != null) {
                            accepted.add(reservation);
                        }
                    }
                    return null;
                }));
            }
            Future<?> relay = pool.submit(() -> relayUntilDeleted(sale.id(), deleted, delivered));
            Future<Integer> archiver = pool.submit(() -> {
                // Some reservations first, so the deletion races buyers rather than an empty sale.
                while (accepted.size() < ATTEMPTS_PER_BUYER / 10 && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                int attempts = 1;
                while (!archive.delete(sale.id()) && System.nanoTime() < deadline) {
                    attempts++;
                }
                deleted.set(true);
                return attempts;
            });

            int attempts = archiver.get();
            relay.get();
            for (Future<?> buyer : buyers) {
                buyer.get();
            }
            System.out.println("[archive-race] deleted after " + attempts + " attempts, " + accepted.size()
                    + " of " + 2 * ATTEMPTS_PER_BUYER + " attempts accepted");
        }

        assertThat(existing(sale.id())).as("deleted before the deadline").isEmpty();
        assertThat(accepted).isNotEmpty();
        assertThat(delivered.stream().map(OutboxEntry::reservation).toList())
                .containsExactlyInAnyOrderElementsOf(accepted);
        assertThat(fixture.reserve(sale.id(), "after-the-race")).isNull();
    }

    /** archive.lua alone: a delete whose caller stopped before the drop of the request index's buckets. */
    private Long atomicStepOfArchive(ActivityId activityId) {
        return LuaScript.load(redis, "archive").run(redis, ScriptOutputType.INTEGER,
                RedisActivityArchive.scriptKeys(activityId), RedisKeys.OUTBOX_GROUP);
    }

    /** One page of the drop, buckets first .. last, as {@link RequestIndexDrop} sends it. */
    private Long dropPage(ActivityId activityId, String marker, int first, int last, boolean lastPage) {
        var keys = new ArrayList<>(List.of(RedisKeys.requestsDrop(activityId), RedisKeys.meta(activityId)));
        for (int k = first; k <= last; k++) {
            keys.add(RedisKeys.requestBucket(activityId, k));
        }
        return LuaScript.load(redis, "request_drop").run(redis, ScriptOutputType.INTEGER,
                keys.toArray(String[]::new), marker, lastPage ? "1" : "0");
    }

    /** Two entries in every bucket of the sale's request index, as a sale sold out leaves them. */
    private void fillEveryBucket(ActivityId activityId) {
        int buckets = RedisRequestIndex.buckets(redis, activityId);
        for (int k = 1; k <= buckets; k++) {
            redis.hset(RedisKeys.requestBucket(activityId, k), Map.of("buyer-" + k + ":a", "", "buyer-" + k + ":b", ""));
        }
    }

    /** Reads and acknowledges as a relay does, until the keys are gone. */
    private Void relayUntilDeleted(ActivityId activityId, AtomicBoolean deleted, Queue<OutboxEntry> delivered) {
        while (!deleted.get()) {
            List<OutboxEntry> read = fixture.outbox.readNew(activityId, "relay", 50);
            delivered.addAll(read);
            fixture.outbox.acknowledge(activityId, read);
        }
        return null;
    }

    /** A sale on the same Redis whose id starts with the other's: a delete by pattern would take it too. */
    private Activity canaryOf(Activity sale) {
        var canary = new Activity(new ActivityId(sale.id().value() + "-canary"), "canary", sale.startsAt(),
                sale.endsAt(), sale.perUserLimit(), sale.paymentTimeout(), sale.items());
        extraActivities.add(canary.id());
        fixture.stock.warmUp(canary);
        return canary;
    }

    /** Reservations that became orders and whose outbox entries the relays acknowledged: nothing in flight. */
    private void sellAndRelay(Activity sale, int buyers) {
        List<Reservation> made = fixture.reserveEach(sale.id(), buyers);
        fixture.outbox.acknowledge(sale.id(), fixture.outbox.readNew(sale.id(), "relay", 100));
        made.forEach(reservation -> fixture.stock.confirm(reservation.id()));
        assertThat(archive.reservedCount(sale.id())).isZero();
        assertThat(relayed.outboxDrained(sale.id())).isTrue();
    }

    /**
     * The keys a warmed sale of a few units has once it took reservations: every key of the activity, its request index
     * in its one bucket (ADR 0100) instead of the single hash.
     */
    private static List<String> saleKeys(ActivityId activityId) {
        return RedisKeys.activityKeys(activityId).stream()
                .map(key -> key.equals(RedisKeys.requests(activityId)) ? RedisKeys.requestBucket(activityId, 1) : key)
                .toList();
    }

    /** Every key of the activity there is, the request index's buckets included. */
    private List<String> existing(ActivityId activityId) {
        return keysMatching("fs:{" + activityId.value() + "}:*");
    }

    /** Each existing key's serialized value, to show it unchanged byte for byte. */
    private Map<String, String> dump(ActivityId activityId) {
        var dumps = new LinkedHashMap<String, String>();
        for (String key : existing(activityId)) {
            dumps.put(key, Base64.getEncoder().encodeToString(redis.dump(key)));
        }
        return dumps;
    }

    private List<String> keysMatching(String pattern) {
        var keys = new ArrayList<String>();
        KeyScanCursor<String> cursor = redis.scan(ScanArgs.Builder.matches(pattern).limit(1000));
        keys.addAll(cursor.getKeys());
        while (!cursor.isFinished()) {
            cursor = redis.scan(cursor, ScanArgs.Builder.matches(pattern).limit(1000));
            keys.addAll(cursor.getKeys());
        }
        return keys;
    }
}
