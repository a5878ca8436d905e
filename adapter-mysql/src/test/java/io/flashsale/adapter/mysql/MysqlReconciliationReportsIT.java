package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HoldingMismatch;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationClassification;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;

import javax.sql.DataSource;

import java.time.Instant;
import java.util.List;

import static io.flashsale.adapter.mysql.ReconciliationSales.A;
import static io.flashsale.adapter.mysql.ReconciliationSales.token;
import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(classes = MysqlAdapterTestApplication.class)
class MysqlReconciliationReportsIT extends ReconciliationDatabase {

    private static final SkuId B = new SkuId("b");

    @Autowired
    MysqlReconciliationReports reports;
    @Autowired
    DataSource dataSource;

    private static ReconciliationReport report(ActivityId sale, Instant at, ReconciliationAction action, String detail) {
        return report(sale, A, at, action, detail);
    }

    private static ReconciliationReport report(ActivityId sale, SkuId sku, Instant at, ReconciliationAction action,
                                               String detail) {
        return new ReconciliationReport(sale, sku, at, ReconciliationClassification.REDIS_AHEAD, action,
                new LedgerFigures(10, 1, 3, 6), new LedgerFigures(10, 1, 2, 7), new LedgerFigures(10, 1, 3, 6),
                List.of(new HoldingMismatch(new BuyerId("ann"), 2, 1), new HoldingMismatch(new BuyerId("bob"), 0, 1)),
                List.of(ReservationId.of(sale, "r1")), List.of(ReservationId.of(sale, "r2"), ReservationId.of(sale, "r3")),
                List.of(), detail);
    }

    @Test
    void givenSavedReports_thenTheyReadBackExactlyNewestFirstUpToTheLimit() {
        ActivityId sale = new ActivityId("rep-" + token().substring(0, 12));
        ReconciliationReport first = report(sale, Instant.parse("2031-01-01T00:00:00.123Z"), ReconciliationAction.REPAIRED,
                "REDIS_AHEAD/REPAIRED");
        ReconciliationReport second = report(sale, Instant.parse("2031-01-01T00:01:00.456Z"),
                ReconciliationAction.DEFERRED, "REDIS_AHEAD/DEFERRED");
        reports.save(first);
        reports.save(second);

        assertThat(reports.findRecent(sale, 10)).containsExactly(second, first);
        assertThat(reports.findRecent(sale, 1)).containsExactly(second);
        assertThat(reports.findRecent(new ActivityId("rep-none"), 10)).isEmpty();
    }

    @Test
    void givenAReportWithALongDetailAndANanosecondRun_thenItIsKeptToTheMillisecondAndTheDetailCut() {
        ActivityId sale = new ActivityId("rep-" + token().substring(0, 12));
        String longDetail = "x".repeat(ReconciliationReportRows.MAX_DETAIL + 50);
        reports.save(report(sale, Instant.parse("2031-01-01T00:00:00.123456789Z"), ReconciliationAction.REPAIRED,
                longDetail));

        ReconciliationReport kept = reports.findRecent(sale, 1).getFirst();
        assertThat(kept.runAt()).isEqualTo(Instant.parse("2031-01-01T00:00:00.123Z"));
        assertThat(kept.detail()).hasSize(ReconciliationReportRows.MAX_DETAIL).endsWith("…");
        assertThat(kept.holdingMismatches()).hasSize(2);
    }

    @Test
    void givenReviewsOfTwoSkus_thenTheNewestOpenOneOfEachIsAwaitingReviewInSkuOrder() {
        ActivityId sale = new ActivityId("rev-" + token().substring(0, 12));
        Instant at = Instant.parse("2031-01-01T00:00:00Z");
        ReconciliationReport olderB = report(sale, B, at, ReconciliationAction.NEEDS_REVIEW, "B first");
        ReconciliationReport newerB = report(sale, B, at.plusSeconds(60), ReconciliationAction.NEEDS_REVIEW, "B again");
        ReconciliationReport onlyA = report(sale, A, at.plusSeconds(30), ReconciliationAction.NEEDS_REVIEW, "A");
        reports.save(olderB);
        reports.save(onlyA);
        reports.save(newerB);
        reports.save(report(sale, A, at.plusSeconds(90), ReconciliationAction.REPAIRED, "not a review"));

        assertThat(reports.awaitingReview(sale)).containsExactly(onlyA, newerB);
        assertThat(reports.awaitingReview(new ActivityId("rev-none"))).isEmpty();
    }

    @Test
    void givenOpenReviewsOfASku_whenClosedTwice_thenTheFirstClosesEveryOneNamingWhoAndTheSecondNone() {
        ActivityId sale = new ActivityId("rev-" + token().substring(0, 12));
        Instant at = Instant.parse("2031-01-01T00:00:00Z");
        reports.save(report(sale, A, at, ReconciliationAction.NEEDS_REVIEW, "A first"));
        reports.save(report(sale, A, at.plusSeconds(60), ReconciliationAction.NEEDS_REVIEW, "A again"));
        ReconciliationReport otherSku = report(sale, B, at, ReconciliationAction.NEEDS_REVIEW, "B");
        reports.save(otherSku);
        reports.save(report(sale, A, at, ReconciliationAction.REPAIRED, "not a review"));

        assertThat(reports.closeReviews(sale, A, "alice", at.plusSeconds(120))).isEqualTo(2);
        assertThat(reports.closeReviews(sale, A, "bob", at.plusSeconds(180))).isZero();

        assertThat(reports.awaitingReview(sale)).containsExactly(otherSku);
        List<String> closedBy = new JdbcTemplate(dataSource).queryForList("SELECT review_closed_by FROM"
                + " reconciliation_report WHERE activity_id = ? AND sku_id = 'a' ORDER BY id", String.class, sale.value());
        assertThat(closedBy).containsExactly("alice", "alice", null);
    }
}
