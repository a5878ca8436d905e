package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.slice.TransferState;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Stock transfers between a sale's slices against the real server, in a database of their own: the sweep's read
 * ({@code unfinished}) spans every sale, so no other class's rows may be in it. The session runs in a non-UTC zone, so
 * stored times are shown to be UTC, and gives up lock waits after a few seconds, so a race that blocks fails.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MysqlStockTransfersIT {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_transfers");
    private static final SkuId A = new SkuId("a");
    private static final SkuId B = new SkuId("b");
    private static final Instant AT = Instant.parse("2031-02-03T04:05:06.789Z");

    @Autowired
    MysqlStockTransfers transfers;

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    DataSource dataSource;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "8");
        registry.add("spring.datasource.hikari.connection-init-sql",
                () -> "SET time_zone = '-03:30', innodb_lock_wait_timeout = 5");
    }

    @Test
    void givenATransferOpened_thenItIsRequestedWithNothingMovedAndReadsBackAsOpened() {
        Activity sale = saleOfThreeSlices();

        StockTransfer opened = transfers.open(sale.id(), A, 0, 2, 40, Instant.parse("2031-02-03T04:05:06.789999Z"));

        assertThat(opened).isEqualTo(StockTransfer.requested(opened.id(), sale.id(), A, 0, 2, 40, AT));
        assertThat(opened.id()).isPositive();
        assertThat(transfers.findById(opened.id())).contains(opened);
        assertThat(jdbc().queryForObject("SELECT CAST(requested_at AS CHAR) FROM stock_transfer WHERE id = ?",
                String.class, opened.id())).as("UTC wall-clock time, truncated to the millisecond")
                .isEqualTo("2031-02-03 04:05:06.789");
    }

    @Test
    void givenTransfersOfTwoSales_thenEachSaleListsItsOwnOldestFirst() {
        Activity sale = saleOfThreeSlices();
        Activity other = saleOfThreeSlices();

        StockTransfer first = transfers.open(sale.id(), A, 0, 1, 10, AT);
        StockTransfer elsewhere = transfers.open(other.id(), A, 0, 1, 10, AT);
        StockTransfer second = transfers.open(sale.id(), B, 2, 0, 3, AT.plusSeconds(1));
        StockTransfer third = transfers.open(sale.id(), A, 1, 2, 7, AT.plusSeconds(2));

        assertThat(List.of(first.id(), elsewhere.id(), second.id(), third.id())).isSorted();
        assertThat(transfers.findByActivity(sale.id())).containsExactly(first, second, third);
        assertThat(transfers.findByActivity(other.id())).containsExactly(elsewhere);
        assertThat(transfers.findByActivity(new ActivityId("no-such-sale"))).isEmpty();
    }

    @Test
    void givenATransfer_whenAdvancedStepByStep_thenTheRowHoldsEachStepAndWhatTheSourceGave() {
        StockTransfer opened = transfers.open(saleOfThreeSlices().id(), A, 0, 1, 10, AT);
        StockTransfer taken = opened.taken(4);

        assertThat(transfers.advance(opened, taken)).isTrue();
        assertThat(transfers.findById(opened.id())).contains(taken);
        assertThat(taken.state()).isEqualTo(TransferState.TAKEN);

        assertThat(transfers.advance(taken, taken.done())).isTrue();
        assertThat(transfers.findById(opened.id())).contains(taken.done());
    }

    @Test
    void givenASourceThatGaveNothing_whenAdvanced_thenTheTransferIsDoneAtOnceWithNothingMoved() {
        StockTransfer opened = transfers.open(saleOfThreeSlices().id(), A, 0, 1, 10, AT);

        assertThat(transfers.advance(opened, opened.taken(0))).isTrue();

        StockTransfer found = transfers.findById(opened.id()).orElseThrow();
        assertThat(found.state()).isEqualTo(TransferState.DONE);
        assertThat(found.moved()).isZero();
    }

    @Test
    void givenAStaleCurrentState_whenAdvanced_thenRefusedAndTheRowKeepsWhatTheFirstRunnerWrote() {
        StockTransfer opened = transfers.open(saleOfThreeSlices().id(), A, 0, 1, 10, AT);
        StockTransfer taken = opened.taken(5);
        transfers.advance(opened, taken);

        assertThat(transfers.advance(opened, opened.taken(2))).isFalse();
        assertThat(transfers.findById(opened.id())).contains(taken);

        transfers.advance(taken, taken.done());
        assertThat(transfers.advance(taken, taken.done())).as("done once, not twice").isFalse();
        assertThat(transfers.advance(opened, opened.taken(0))).isFalse();
        assertThat(transfers.findById(opened.id())).contains(taken.done());
    }

    @Test
    void givenTwoRunnersAdvancingOneTransferFromOneState_whenTheyRace_thenExactlyOneWinsEveryTime() throws Exception {
        Activity sale = saleOfThreeSlices();
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 50; round++) {
                StockTransfer opened = transfers.open(sale.id(), A, 0, 1, 10, AT);
                StockTransfer left = opened.taken(3);
                StockTransfer right = opened.taken(7);
                CyclicBarrier start = new CyclicBarrier(2);

                Future<Boolean> leftWon = pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return transfers.advance(opened, left);
                });
                Future<Boolean> rightWon = pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return transfers.advance(opened, right);
                });

                List<Boolean> won = List.of(leftWon.get(30, TimeUnit.SECONDS), rightWon.get(30, TimeUnit.SECONDS));
                assertThat(won).as("round %d", round).containsOnlyOnce(true);
                StockTransfer winner = won.get(0) ? left : right;
                assertThat(transfers.findById(opened.id())).as("round %d", round).contains(winner);
            }
        }
    }

    @Test
    void givenTransfersInEveryState_thenUnfinishedListsRequestedAndTakenButNeverDone_oldestFirst_atMostTheLimit() {
        finishEveryTransferSoFar();
        Activity sale = saleOfThreeSlices();
        StockTransfer requested = transfers.open(sale.id(), A, 0, 1, 10, AT);
        StockTransfer doneWithNothing = transfers.open(sale.id(), A, 1, 2, 10, AT);
        transfers.advance(doneWithNothing, doneWithNothing.taken(0));
        StockTransfer openedThenTaken = transfers.open(sale.id(), B, 2, 0, 10, AT);
        StockTransfer taken = openedThenTaken.taken(6);
        transfers.advance(openedThenTaken, taken);
        StockTransfer openedThenDone = transfers.open(sale.id(), B, 0, 1, 10, AT);
        transfers.advance(openedThenDone, openedThenDone.taken(10));
        transfers.advance(openedThenDone.taken(10), openedThenDone.taken(10).done());
        StockTransfer newest = transfers.open(saleOfThreeSlices().id(), A, 2, 1, 10, AT);

        assertThat(transfers.unfinished(0, 100)).containsExactly(requested, taken, newest);
        assertThat(transfers.unfinished(0, 2)).containsExactly(requested, taken);
        assertThat(transfers.unfinished(0, 1)).containsExactly(requested);
        assertThat(transfers.unfinished(requested.id(), 100)).as("the page after the first").containsExactly(taken,
                newest);
        assertThat(transfers.unfinished(newest.id(), 100)).isEmpty();
    }

    @Test
    void givenALimitBelowOne_whenUnfinishedAskedFor_thenRefused() {
        assertThatThrownBy(() -> transfers.unfinished(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenAnUnknownId_whenFound_thenItIsEmpty() {
        assertThat(transfers.findById(Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void givenAStepBackOrToAnotherTransfer_whenAdvanced_thenRefusedAndNothingChanges() {
        Activity sale = saleOfThreeSlices();
        StockTransfer opened = transfers.open(sale.id(), A, 0, 1, 10, AT);
        StockTransfer other = transfers.open(sale.id(), A, 0, 1, 10, AT);
        StockTransfer taken = opened.taken(4);
        transfers.advance(opened, taken);

        assertThatThrownBy(() -> transfers.advance(taken, opened)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> transfers.advance(taken, taken)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> transfers.advance(other, taken)).isInstanceOf(IllegalArgumentException.class);
        assertThat(transfers.findById(opened.id())).contains(taken);
        assertThat(transfers.findById(other.id())).contains(other);
    }

    @Test
    void givenATransferTheDomainRefuses_whenOpened_thenNothingIsWritten() {
        Activity sale = saleOfThreeSlices();

        assertThatThrownBy(() -> transfers.open(sale.id(), A, 1, 1, 10, AT)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> transfers.open(sale.id(), A, 0, 1, 0, AT)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> transfers.open(sale.id(), A, 0, 64, 1, AT)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> transfers.open(sale.id(), A, 0, 1, 1, Instant.parse("+10000-01-01T00:00:00Z")))
                .isInstanceOf(InvalidValueException.class);
        assertThat(transfers.findByActivity(sale.id())).isEmpty();
    }

    @Test
    void givenASkuTheSaleDoesNotOffer_whenOpened_thenTheTableRefusesIt() {
        Activity sale = saleOfThreeSlices();

        assertThatThrownBy(() -> transfers.open(sale.id(), new SkuId("not-offered"), 0, 1, 1, AT))
                .isInstanceOf(DataIntegrityViolationException.class);
        assertThat(transfers.findByActivity(sale.id())).isEmpty();
    }

    private Activity saleOfThreeSlices() {
        ActivityId id = new ActivityId("tr-" + UUID.randomUUID().toString().substring(0, 18));
        Activity sale = new Activity(id, "Transfers " + id, AT.minus(Duration.ofHours(1)), AT.plus(Duration.ofHours(6)),
                PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT,
                List.of(new ActivityItem(A, 100, null, 1), new ActivityItem(B, 30, null, 1)), false,
                new SaleSlices(3));
        activities.add(sale);
        return sale;
    }

    /** The earlier tests' transfers out of the sweep's way, so the one asking for unfinished sees only its own. */
    private void finishEveryTransferSoFar() {
        jdbc().update("UPDATE stock_transfer SET state = 'DONE' WHERE state <> 'DONE'");
    }

    private JdbcTemplate jdbc() {
        return new JdbcTemplate(dataSource);
    }
}
