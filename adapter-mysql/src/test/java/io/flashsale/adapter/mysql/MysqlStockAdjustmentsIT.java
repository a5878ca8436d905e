package io.flashsale.adapter.mysql;

import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.stock.StockAdjustment;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import javax.sql.DataSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.flashsale.adapter.mysql.ReconciliationSales.A;
import static io.flashsale.adapter.mysql.ReconciliationSales.line;
import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(classes = MysqlAdapterTestApplication.class)
class MysqlStockAdjustmentsIT extends ReconciliationDatabase {

    private static final Instant AT = Instant.parse("2031-02-03T04:05:06.789Z");

    @Autowired
    MysqlStockAdjustments adjustments;

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    MysqlOrderRepository orders;

    @Autowired
    DataSource dataSource;

    private ReconciliationSales sales() {
        return new ReconciliationSales(activities, orders);
    }

    private Books books() {
        return new Books(dataSource);
    }

    private long stockOf(ActivityId sale, SkuId sku) {
        return books().jdbc().queryForObject("SELECT stock FROM activity_item WHERE activity_id = ? AND sku_id = ?",
                Long.class, sale.value(), sku.value());
    }

    @Test
    void givenAnIncreaseAndADecrease_thenTheTotalMovesAndEachIsAppendedWithWhoWhyWhenAndTheFiguresItSaw() {
        ReconciliationSales sales = sales();
        Activity sale = sales.sale(10, 4);
        sales.place(sales.reservation(sale.id(), "ann", line(A, 3)));

        AdjustmentRecording up = adjustments.record(sale.id(), A, 5, "admin-1", "found a pallet", AT);
        AdjustmentRecording down = adjustments.record(sale.id(), A, -12, "admin-2", "damaged in the warehouse",
                AT.plusSeconds(1));

        StockAdjustment first = ((AdjustmentRecording.Recorded) up).adjustment();
        StockAdjustment second = ((AdjustmentRecording.Recorded) down).adjustment();
        assertThat(first).isEqualTo(new StockAdjustment(first.id(), sale.id(), A, 5, 10, 15, 3, "admin-1",
                "found a pallet", AT));
        assertThat(second).isEqualTo(new StockAdjustment(second.id(), sale.id(), A, -12, 15, 3, 3, "admin-2",
                "damaged in the warehouse", AT.plusSeconds(1)));
        assertThat(second.id()).isGreaterThan(first.id());
        assertThat(stockOf(sale.id(), A)).isEqualTo(3);
        assertThat(adjustments.findByActivity(sale.id())).containsExactly(first, second);
        assertThat(activities.findById(sale.id()).orElseThrow().item(A).orElseThrow().stock())
                .as("the activity reads the adjusted total").isEqualTo(3);
    }

    @Test
    void givenAReductionBelowSoldOrPastTheMaximumOrForNoSuchSku_thenRefusedAndNothingChangesOrIsAppended() {
        ReconciliationSales sales = sales();
        Activity sale = sales.sale(10, 4);
        sales.place(sales.reservation(sale.id(), "ann", line(A, 4)));

        assertThat(adjustments.record(sale.id(), A, -7, "admin", "too much", AT))
                .isEqualTo(new AdjustmentRecording.BelowSold(10, 4));
        assertThat(adjustments.record(sale.id(), A, ActivityItem.MAX_STOCK, "admin", "way too much", AT))
                .isEqualTo(new AdjustmentRecording.AboveMaximum(10));
        assertThat(adjustments.record(sale.id(), new SkuId("zz"), 1, "admin", "no such thing", AT))
                .isEqualTo(new AdjustmentRecording.UnknownSku());

        assertThat(stockOf(sale.id(), A)).isEqualTo(10);
        assertThat(adjustments.findByActivity(sale.id())).isEmpty();
        assertThat(adjustments.record(sale.id(), A, -6, "admin", "exactly to sold", AT))
                .isInstanceOf(AdjustmentRecording.Recorded.class);
        assertThat(stockOf(sale.id(), A)).isEqualTo(4);
    }

    @Test
    void givenAdjustmentsAndOrdersRacing_thenSoldNeverPassesStockAndTheRowsChainWithoutAGap() throws Exception {
        ReconciliationSales sales = sales();
        Activity sale = sales.sale(40, 4);
        AtomicInteger placed = new AtomicInteger();
        List<Callable<Void>> work = new ArrayList<>();
        for (int buyer = 0; buyer < 60; buyer++) {
            String name = "buyer-" + buyer;
            work.add(() -> {
                if (sales.place(sales.reservation(sale.id(), name, line(A, 1))) instanceof OrderPlacement.Placed) {
                    placed.incrementAndGet();
                }
                return null;
            });
        }
        for (int admin = 0; admin < 20; admin++) {
            String operator = "admin-" + admin;
            work.add(() -> {
                long delta = ThreadLocalRandom.current().nextBoolean() ? 3 : -3;
                adjustments.record(sale.id(), A, delta, operator, "racing", AT);
                return null;
            });
        }
        java.util.Collections.shuffle(work);
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            List<Future<Void>> done = new ArrayList<>();
            for (Callable<Void> task : work) {
                done.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            start.countDown();
            for (Future<Void> task : done) {
                task.get(2, TimeUnit.MINUTES);
            }
        }

        List<StockAdjustment> chain = adjustments.findByActivity(sale.id());
        long stock = stockOf(sale.id(), A);
        long sold = books().jdbc().queryForObject(
                "SELECT sold FROM activity_item WHERE activity_id = ? AND sku_id = 'a'", Long.class, sale.id().value());
        System.out.printf("[adjustment-race] %d orders placed, %d adjustments, stock %d, sold %d%n", placed.get(),
                chain.size(), stock, sold);
        assertThat(sold).isEqualTo(placed.get()).isLessThanOrEqualTo(stock);
        assertThat(stock).isEqualTo(40 + chain.stream().mapToLong(StockAdjustment::delta).sum());
        long previous = 40;
        for (StockAdjustment adjustment : chain) {
            assertThat(adjustment.stockBefore()).as("each adjustment starts where the one before ended")
                    .isEqualTo(previous);
            assertThat(adjustment.soldAtTheTime()).isLessThanOrEqualTo(adjustment.stockAfter());
            previous = adjustment.stockAfter();
        }
        assertThat(previous).isEqualTo(stock);
        assertThat(new Books(dataSource).sold(sale.id())).contains("a " + sold);
    }

    @Test
    void givenRecordedAdjustments_whenMoreFollow_thenTheEarlierRowsStayExactlyAsTheyWere() {
        ReconciliationSales sales = sales();
        Activity sale = sales.sale(10, 4);
        adjustments.record(sale.id(), A, 2, "admin", "first", AT);
        List<Map<String, Object>> before = books().jdbc().queryForList(
                "SELECT * FROM stock_adjustment WHERE activity_id = ? ORDER BY id", sale.id().value());

        adjustments.record(sale.id(), A, -1, "admin", "second", AT.plusSeconds(1));
        adjustments.record(sale.id(), ReconciliationSales.B, 3, "admin", "third", AT.plusSeconds(2));

        List<Map<String, Object>> after = books().jdbc().queryForList(
                "SELECT * FROM stock_adjustment WHERE activity_id = ? ORDER BY id", sale.id().value());
        assertThat(after).hasSize(3);
        assertThat(after.subList(0, 1)).isEqualTo(before);
    }
}
