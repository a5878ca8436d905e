package io.flashsale.adapter.mysql.cache;

import io.flashsale.application.sale.port.out.ActivityRecord;
import io.flashsale.application.sale.port.out.ActivityRecordsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reservation.PurchaseLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The rules of the read path's memory of sales, on a clock the test moves. */
@Timeout(30)
class RememberedActivitiesTest {

    private static final Duration KNOWN = Duration.ofSeconds(10);
    private static final Duration UNKNOWN = Duration.ofSeconds(2);
    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final ActivityId NOWHERE = new ActivityId("no-such-sale");

    private final AtomicLong nanos = new AtomicLong();
    private final Database database = new Database();
    private final RememberedActivities remembered = new RememberedActivities(database,
            new RememberedActivities.Memory(KNOWN, UNKNOWN, 100), nanos::get);

    /** The database of record, counting the questions it is asked. */
    private static final class Database implements ActivityRecordsPort {
        final Map<ActivityId, ActivityRecord> sales = new ConcurrentHashMap<>();
        final AtomicInteger asked = new AtomicInteger();
        volatile CountDownLatch slow = new CountDownLatch(0);

        @Override
        public Optional<ActivityRecord> find(ActivityId activityId) {
            // Read first, answer after the latch: a slow query answers with what it read.
            Optional<ActivityRecord> read = Optional.ofNullable(sales.get(activityId));
            asked.incrementAndGet();
            try {
                slow.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return read;
        }
    }

    private static ActivityRecord sale(String name) {
        Instant start = Instant.parse("2030-06-01T10:00:00Z");
        return new ActivityRecord(new Activity(SALE, name, start, start.plusSeconds(3600), PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of("a", 10))), Optional.empty());
    }

    private void later(Duration duration) {
        nanos.addAndGet(duration.toNanos());
    }

    @Test
    void givenAKnownSale_whenReadAgainAndAgain_thenTheDatabaseIsAskedOnce() {
        database.sales.put(SALE, sale("first"));

        for (int i = 0; i < 1_000; i++) {
            assertThat(remembered.find(SALE)).contains(sale("first"));
        }

        assertThat(database.asked).hasValue(1);
    }

    @Test
    void givenAKnownSale_whenItsChangeIsHeard_thenTheNextReadAsksTheDatabaseAndSeesTheChange() {
        database.sales.put(SALE, sale("first"));
        remembered.find(SALE);
        database.sales.put(SALE, sale("second"));

        assertThat(remembered.find(SALE)).as("no notice yet").contains(sale("first"));
        remembered.changed(SALE);

        assertThat(remembered.find(SALE)).contains(sale("second"));
        assertThat(database.asked).hasValue(2);
    }

    @Test
    void givenAKnownSale_whenNoNoticeComes_thenItIsForgottenAfterTheKnownMemory() {
        database.sales.put(SALE, sale("first"));
        remembered.find(SALE);
        database.sales.put(SALE, sale("second"));

        later(KNOWN.minusMillis(1));
        assertThat(remembered.find(SALE)).contains(sale("first"));
        later(Duration.ofMillis(1));
        assertThat(remembered.find(SALE)).contains(sale("second"));
    }

    @Test
    void givenAnUnknownId_whenACrowdAsks_thenTheDatabaseIsAskedOncePerUnknownMemory() {
        for (int i = 0; i < 1_000; i++) {
            assertThat(remembered.find(NOWHERE)).isEmpty();
            assertThat(remembered.findById(NOWHERE)).isEmpty();
        }
        assertThat(database.asked).hasValue(1);

        later(UNKNOWN);
        assertThat(remembered.find(NOWHERE)).isEmpty();
        assertThat(database.asked).as("the short memory of an unknown id ran out").hasValue(2);
    }

    @Test
    void givenAnUnknownId_whenTheSaleIsCreatedAndAnnounced_thenItIsFoundAtOnce() {
        assertThat(remembered.find(SALE)).isEmpty();
        database.sales.put(SALE, sale("first"));

        remembered.changed(SALE);

        assertThat(remembered.findById(SALE)).contains(sale("first").activity());
    }

    @Test
    void givenNoticesMissed_thenEverySaleIsForgotten() {
        database.sales.put(SALE, sale("first"));
        remembered.find(SALE);
        remembered.find(NOWHERE);

        remembered.missedSome();
        remembered.find(SALE);
        remembered.find(NOWHERE);

        assertThat(database.asked).hasValue(4);
    }

    @Test
    void givenAChangeOfAnotherSale_thenThisOneIsKept() {
        database.sales.put(SALE, sale("first"));
        remembered.find(SALE);

        remembered.changed(NOWHERE);
        remembered.find(SALE);

        assertThat(database.asked).hasValue(1);
    }

    @Test
    void givenZeroMemories_thenEveryReadAsksTheDatabase() {
        var forgetful = new RememberedActivities(database,
                new RememberedActivities.Memory(Duration.ZERO, Duration.ZERO, 100), nanos::get);
        database.sales.put(SALE, sale("first"));

        forgetful.find(SALE);
        forgetful.find(SALE);
        forgetful.find(NOWHERE);
        forgetful.find(NOWHERE);

        assertThat(database.asked).hasValue(4);
    }

    @Test
    void givenConcurrentReadersOfAColdSale_thenTheyShareOneQuery() throws Exception {
        database.sales.put(SALE, sale("first"));
        database.slow = new CountDownLatch(1);
        ExecutorService readers = Executors.newFixedThreadPool(16);
        try {
            List<Future<Optional<ActivityRecord>>> answers = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                answers.add(readers.submit(() -> remembered.find(SALE)));
            }
            Thread.sleep(100);
            database.slow.countDown();
            for (Future<Optional<ActivityRecord>> answer : answers) {
                assertThat(answer.get(10, TimeUnit.SECONDS)).contains(sale("first"));
            }
        } finally {
            readers.shutdownNow();
        }
        assertThat(database.asked).hasValue(1);
    }

    /**
     * A query that read the sale before its change and answers after the notice must not leave the old answer behind:
     * the notice waits for the query in flight and forgets what it brought.
     */
    @Test
    void givenAChangeHeardWhileAQueryIsInFlight_thenItsAnswerIsNotKept() throws Exception {
        database.sales.put(SALE, sale("first"));
        database.slow = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Optional<ActivityRecord>> inFlight = threads.submit(() -> remembered.find(SALE));
            while (database.asked.get() == 0) {
                Thread.onSpinWait();
            }
            // The query has read "first" (it waits on the latch with it); the change lands and is announced.
            database.sales.put(SALE, sale("second"));
            Future<?> notice = threads.submit(() -> remembered.changed(SALE));
            Thread.sleep(50);
            database.slow.countDown();
            notice.get(10, TimeUnit.SECONDS);
            inFlight.get(10, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }

        assertThat(remembered.find(SALE)).contains(sale("second"));
    }

    @Test
    void givenNegativeMemoriesOrNoRoom_thenRefused() {
        assertThatThrownBy(() -> new RememberedActivities.Memory(Duration.ofSeconds(-1), UNKNOWN, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RememberedActivities.Memory(KNOWN, Duration.ofSeconds(-1), 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RememberedActivities.Memory(KNOWN, UNKNOWN, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
