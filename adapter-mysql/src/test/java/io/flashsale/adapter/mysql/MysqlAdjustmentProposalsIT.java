package io.flashsale.adapter.mysql;

import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.application.reconciliation.port.out.ProposalApproval;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.stock.AdjustmentProposal;
import io.flashsale.domain.stock.ProposalStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.dao.DataIntegrityViolationException;

import javax.sql.DataSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.flashsale.adapter.mysql.ReconciliationSales.A;
import static io.flashsale.adapter.mysql.ReconciliationSales.line;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@SpringBootTest(classes = MysqlAdapterTestApplication.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class MysqlAdjustmentProposalsIT extends ReconciliationDatabase {

    private static final Instant AT = Instant.parse("2031-02-03T04:05:06.789Z");
    private static final Instant EXPIRES = AT.plus(Duration.ofMinutes(30));

    @Autowired
    MysqlAdjustmentProposals proposals;

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

    private long stockOf(Activity sale) {
        return new Books(dataSource).jdbc().queryForObject(
                "SELECT stock FROM activity_item WHERE activity_id = ? AND sku_id = ?", Long.class, sale.id().value(),
                A.value());
    }

    @Test
    void givenAProposal_thenItIsKeptPendingWithWhoWhyAndWhen_andTheStockDoesNotMove() {
        Activity sale = sales().sale(10, 4);

        AdjustmentProposal made = proposals.propose(sale.id(), A, 5, "found a pallet", "olivia", AT, EXPIRES);

        assertThat(made.id()).isPositive();
        assertThat(made.status()).isEqualTo(ProposalStatus.PENDING);
        assertThat(proposals.find(sale.id(), made.id())).contains(made);
        assertThat(proposals.findByActivity(sale.id())).containsExactly(made);
        assertThat(proposals.find(sale.id(), made.id() + 1000)).isEmpty();
        assertThat(stockOf(sale)).isEqualTo(10);
        assertThat(adjustments.findByActivity(sale.id())).isEmpty();
    }

    @Test
    void givenAnotherOperatorsApproval_thenTheAdjustmentIsRecordedInTheProposersNameAndTheProposalNamesIt() {
        Activity sale = sales().sale(10, 4);
        AdjustmentProposal made = proposals.propose(sale.id(), A, 5, "found a pallet", "olivia", AT, EXPIRES);

        ProposalApproval approval = proposals.approve(made, "peter", AT.plusSeconds(60));

        var decided = (ProposalApproval.Decided) approval;
        var recorded = ((AdjustmentRecording.Recorded) decided.recording()).adjustment();
        assertThat(recorded.operator()).isEqualTo("olivia");
        assertThat(recorded.stockBefore()).isEqualTo(10);
        assertThat(recorded.stockAfter()).isEqualTo(15);
        assertThat(decided.proposal()).isEqualTo(made.closed(ProposalStatus.APPROVED, "peter", AT.plusSeconds(60),
                recorded.id()));
        assertThat(proposals.find(sale.id(), made.id())).contains(decided.proposal());
        assertThat(stockOf(sale)).isEqualTo(15);
    }

    @Test
    void givenTheProposersOwnApprovalOrAnExpiredProposal_thenNothingChanges() {
        Activity sale = sales().sale(10, 4);
        AdjustmentProposal made = proposals.propose(sale.id(), A, 5, "found a pallet", "olivia", AT, EXPIRES);

        assertThat(proposals.approve(made, "olivia", AT.plusSeconds(1)))
                .isEqualTo(new ProposalApproval.NoLongerPending(made));
        assertThat(proposals.approve(made, "peter", EXPIRES)).isEqualTo(new ProposalApproval.NoLongerPending(made));

        assertThat(proposals.find(sale.id(), made.id())).contains(made);
        assertThat(stockOf(sale)).isEqualTo(10);
        assertThat(adjustments.findByActivity(sale.id())).isEmpty();
    }

    @Test
    void givenAnApprovalTheStockRefuses_thenTheProposalStaysPendingAndNothingIsRecorded() {
        ReconciliationSales sales = sales();
        Activity sale = sales.sale(10, 4);
        sales.place(sales.reservation(sale.id(), "ann", line(A, 4)));
        AdjustmentProposal made = proposals.propose(sale.id(), A, -7, "too many", "olivia", AT, EXPIRES);

        assertThat(proposals.approve(made, "peter", AT.plusSeconds(1)))
                .isEqualTo(new ProposalApproval.Decided(made, new AdjustmentRecording.BelowSold(10, 4)));

        assertThat(proposals.find(sale.id(), made.id())).contains(made);
        assertThat(stockOf(sale)).isEqualTo(10);
    }

    @Test
    void givenAPendingProposal_whenClosed_thenOnlyTheFirstCloseOrApprovalCounts() {
        Activity sale = sales().sale(10, 4);
        AdjustmentProposal rejected = proposals.propose(sale.id(), A, 5, "found a pallet", "olivia", AT, EXPIRES);
        AdjustmentProposal withdrawn = proposals.propose(sale.id(), A, -1, "miscount", "olivia", AT, EXPIRES);

        assertThat(proposals.close(rejected, ProposalStatus.REJECTED, "peter", AT.plusSeconds(1)))
                .contains(rejected.closed(ProposalStatus.REJECTED, "peter", AT.plusSeconds(1), null));
        assertThat(proposals.close(rejected, ProposalStatus.REJECTED, "quinn", AT.plusSeconds(2))).isEmpty();
        assertThat(proposals.approve(rejected, "quinn", AT.plusSeconds(3)))
                .isInstanceOfSatisfying(ProposalApproval.NoLongerPending.class,
                        lost -> assertThat(lost.current().status()).isEqualTo(ProposalStatus.REJECTED));
        assertThat(proposals.close(withdrawn, ProposalStatus.WITHDRAWN, "olivia", AT.plusSeconds(4))).isPresent();

        assertThat(proposals.findByActivity(sale.id())).extracting(AdjustmentProposal::status)
                .containsExactly(ProposalStatus.REJECTED, ProposalStatus.WITHDRAWN);
        assertThat(stockOf(sale)).isEqualTo(10);
    }

    @Test
    void theTableItselfRefusesAnApprovalByTheProposer() {
        Activity sale = sales().sale(10, 4);
        AdjustmentProposal made = proposals.propose(sale.id(), A, 5, "found a pallet", "olivia", AT, EXPIRES);

        assertThatThrownBy(() -> new Books(dataSource).jdbc().update("UPDATE stock_adjustment_proposal SET "
                + "status = 'REJECTED', decided_by = proposed_by, decided_at = proposed_at WHERE id = ?", made.id()))
                .isInstanceOf(DataIntegrityViolationException.class);
    }

    @Test
    void givenTenApprovalsRacing_thenTheAdjustmentIsAppliedOnce() throws Exception {
        Activity sale = sales().sale(10, 4);
        AdjustmentProposal made = proposals.propose(sale.id(), A, 5, "found a pallet", "olivia", AT, EXPIRES);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ProposalApproval>> answers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(10)) {
            for (int i = 0; i < 10; i++) {
                String approver = "approver-" + i;
                answers.add(pool.submit(() -> {
                    start.await();
                    return proposals.approve(made, approver, AT.plusSeconds(1));
                }));
            }
            start.countDown();
            int applied = 0;
            for (Future<ProposalApproval> answer : answers) {
                if (answer.get(60, TimeUnit.SECONDS) instanceof ProposalApproval.Decided decided) {
                    assertThat(decided.recording()).isInstanceOf(AdjustmentRecording.Recorded.class);
                    applied++;
                }
            }
            assertThat(applied).isEqualTo(1);
        }
        assertThat(stockOf(sale)).isEqualTo(15);
        assertThat(adjustments.findByActivity(sale.id())).hasSize(1);
        assertThat(proposals.find(sale.id(), made.id()).orElseThrow().status()).isEqualTo(ProposalStatus.APPROVED);
    }
}
