package io.flashsale.bootstrap.schedule;

import io.flashsale.application.order.port.in.CompletePendingRestoresUseCase;
import io.flashsale.application.order.service.PendingRestoreService;
import io.flashsale.application.reconciliation.port.in.ScheduleReconciliationsUseCase;
import io.flashsale.application.reconciliation.service.ReconciliationScheduleService;
import io.flashsale.application.sale.port.in.ScheduleArchivesUseCase;
import io.flashsale.application.sale.port.in.ScheduleWarmUpsUseCase;
import io.flashsale.application.sale.service.ArchiveService;
import io.flashsale.application.sale.service.WarmUpScheduler;
import io.flashsale.application.slice.port.in.FinishTransfersUseCase;
import io.flashsale.application.slice.port.in.RebalanceSlicesUseCase;
import io.flashsale.application.slice.service.SliceRebalancer;
import io.flashsale.application.slice.service.StockTransferService;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/**
 * Records every pass of the six locked jobs, on every instance of this test JVM, in one journal: which instance,
 * which job, when it began and ended. Each recorded pass also takes {@link #PASS_TIME}, as a pass over a busy sale
 * would, so that two instances running one job at once would overlap visibly. The schedule loops get these through
 * {@code @Primary}; the real services do the work.
 */
@TestConfiguration(proxyBeanMethods = false)
class JobJournal {

    static final Duration PASS_TIME = Duration.ofMillis(50);
    static final List<String> JOBS = List.of("reconciliation", "warm-up", "archive", "restore-sweep",
            "transfer-sweep", "slice-rebalance");
    static final Queue<Run> RUNS = new ConcurrentLinkedQueue<>();

    /** One pass; times from {@link System#nanoTime()}, comparable across the instances of this JVM. */
    record Run(String instance, String job, long startNanos, long endNanos) {
    }

    @Bean
    @Primary
    ScheduleReconciliationsUseCase recordedReconciliations(ReconciliationScheduleService real,
                                                           @Value("${test.instance}") String instance) {
        return () -> record(instance, "reconciliation", real::reconcileLive);
    }

    @Bean
    @Primary
    ScheduleWarmUpsUseCase recordedWarmUps(WarmUpScheduler real, @Value("${test.instance}") String instance) {
        return () -> record(instance, "warm-up", real::warmUpDue);
    }

    @Bean
    @Primary
    ScheduleArchivesUseCase recordedArchives(ArchiveService real, @Value("${test.instance}") String instance) {
        return () -> record(instance, "archive", real::archiveDue);
    }

    @Bean
    @Primary
    CompletePendingRestoresUseCase recordedRestores(PendingRestoreService real,
                                                    @Value("${test.instance}") String instance) {
        return max -> record(instance, "restore-sweep", () -> real.completePendingRestores(max));
    }

    @Bean
    @Primary
    FinishTransfersUseCase recordedTransferSweeps(StockTransferService real,
                                                  @Value("${test.instance}") String instance) {
        return () -> record(instance, "transfer-sweep", real::finishUnfinished);
    }

    @Bean
    @Primary
    RebalanceSlicesUseCase recordedRebalances(SliceRebalancer real, @Value("${test.instance}") String instance) {
        return () -> record(instance, "slice-rebalance", real::rebalance);
    }

    private static <T> T record(String instance, String job, Supplier<T> pass) {
        long start = System.nanoTime();
        try {
            Thread.sleep(PASS_TIME);
            return pass.get();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", interrupted);
        } finally {
            RUNS.add(new Run(instance, job, start, System.nanoTime()));
        }
    }
}
