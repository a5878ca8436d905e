package io.flashsale.bootstrap.pipeline;

import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Audited stock adjustments of a sale in slices through the service (ADR 112): approved by a second operator, each
 * slice takes its part (its share of the new total less its share of the old); a reduction whose part a sold-out slice
 * cannot give is covered by a stock transfer from a slice that can; every slice then reconciles clean against its
 * allotment, and the sale sells exactly its new stock. The transfer sweep and the rebalancer are held off (their job
 * locks taken), so only the adjustment moves stock.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SlicedAdjustmentIT extends PipelineTestBase {

    private static final int SLICES = 3;
    /** 10 units a slice. */
    private static final long UNITS = 30;
    private static final int LIMIT = 2;
    private static final SkuId SKU_ID = new SkuId(SKU);

    @Autowired
    SliceStockPort slices;

    @BeforeEach
    void holdOffTheTransferJobs() throws InterruptedException {
        holdOffTransferJobs("SlicedAdjustmentIT");
    }

    @AfterEach
    void releaseTheTransferJobs() {
        releaseTransferJobs("SlicedAdjustmentIT");
    }

    @Test
    void givenAnIncrease_whenApproved_thenEachSliceTakesItsShare_andTheSaleSellsExactlyTheNewStock() {
        String id = slicedSale(UNITS, LIMIT, SLICES);

        JsonNode approved = approved(adjustStock(id, 7, "a late delivery"));

        assertThat(approved.path("applied").path("hotStore").asString()).as(approved.toString())
                .isEqualTo("APPLIED");
        // 37 units are 13, 12, 12.
        assertThat(totals(id)).containsExactly(13L, 12L, 12L);
        assertEverySliceClean(id);
        Map<String, String> accepted = sellEverySliceOut(id);
        assertThat(accepted).hasSize(37);
        awaitExactlyOneOrderEach(id, 37, accepted);
    }

    @Test
    void givenAReductionASoldOutSliceCannotGiveItsPartOf_whenApproved_thenAnotherSliceGivesIt_andNothingIsOversold() {
        String id = slicedSale(UNITS, LIMIT, SLICES);
        Map<String, String> accepted = new LinkedHashMap<>(buyOneEach(id, buyersHomedIn(SLICES, 2, 10, 0)));
        awaitExactlyOneOrderEach(id, UNITS, accepted);
        assertThat(ledger(id, 2).available()).as("slice 2 sold out").isZero();

        JsonNode approved = approved(adjustStock(id, -6, "six were damaged"));

        // 24 units are 8, 8, 8: parts -2 each. Slice 2 sold its 10, so a transfer brought it 2 to give.
        assertThat(approved.path("applied").path("hotStore").asString()).as(approved.toString())
                .isEqualTo("APPLIED");
        assertThat(ledger(id, 2)).isEqualTo(new StockLedger(10, 0, 10));
        assertThat(totals(id).stream().mapToLong(Long::longValue).sum()).as("the new total over the slices")
                .isEqualTo(24);
        assertEverySliceClean(id);
        accepted.putAll(sellEverySliceOut(id));
        assertThat(accepted).hasSize(24);
        awaitExactlyOneOrderEach(id, 24, accepted);
        assertThat(figures.orderCountByStatus(new ActivityId(id)))
                .containsExactly(entry(ReservationStatus.ORDERED, 24L));
    }

    /** Every unit each slice still has, one a new buyer homed there. */
    private Map<String, String> sellEverySliceOut(String id) {
        Map<String, String> accepted = new LinkedHashMap<>();
        for (int k = 0; k < SLICES; k++) {
            accepted.putAll(buyOneEach(id, buyersHomedIn(SLICES, k, (int) ledger(id, k).available(), 20)));
        }
        ServiceClient.Reply soldOut = reserve(id, buyersHomedIn(SLICES, 0, 1, 60).getFirst(), "k0", 1);
        assertThat(soldOut.json().path("code").asString()).as(soldOut.body()).isEqualTo("SOLD_OUT");
        return accepted;
    }

    private void assertEverySliceClean(String id) {
        JsonNode reconciliation = reconcile(id);
        assertThat(reconciliation.path("reports").valueStream().map(report -> report.path("action").asString())
                .toList()).as(reconciliation.toString()).containsExactly("NONE", "NONE", "NONE");
    }

    private static JsonNode approved(ServiceClient.Reply approval) {
        assertThat(approval.status()).as(approval.body()).isEqualTo(200);
        return approval.json();
    }

    private List<Long> totals(String id) {
        return List.of(ledger(id, 0).total(), ledger(id, 1).total(), ledger(id, 2).total());
    }

    private StockLedger ledger(String id, int k) {
        return slices.stock(new SaleSlice(new ActivityId(id), k, new SaleSlices(SLICES))).orElseThrow().getFirst()
                .ledger();
    }
}
