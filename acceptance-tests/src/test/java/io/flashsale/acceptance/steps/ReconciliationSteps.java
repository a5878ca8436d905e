package io.flashsale.acceptance.steps;

import io.cucumber.java.After;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.inspect.HotStore;
import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.adapter.scheduling.PeriodicLoop;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Damage to the fast store, as Redis can suffer it, and the operator's reconciliation of a sale with the shop's
 * books: what it reports for each product and what it repaired.
 */
public class ReconciliationSteps {

    private static final Duration POLL = Duration.ofMillis(500);
    private static final String WARM_UP_LOOP = "warmUpLoop";

    private final SaleWorld world;
    private final HotStore hotStore;
    private final PeriodicLoop warmUps;
    private JsonNode lastReport;
    private boolean warmUpsHeld;
    private long slowCommandsSeen = -1;
    private LedgerRepair pendingRepair;
    private Map<String, Long> holdingsAtTheLook;
    private Map<String, Long> holdingsBeforeTheRepair;
    private LedgerRepairResult repairResult;
    private long sliceTotalBeforeTheLoss;

    public ReconciliationSteps(SaleWorld world, HotStore hotStore, ApplicationContext context) {
        this.world = world;
        this.hotStore = hotStore;
        this.warmUps = context.getBean(WARM_UP_LOOP, PeriodicLoop.class);
    }

    @Given("the shop has stopped loading sales into the fast store by itself")
    public void holdWarmUps() {
        warmUps.stop();
        assertThat(warmUps.isRunning()).as("the warm-up schedule stopped").isFalse();
        warmUpsHeld = true;
    }

    @When("the fast store loses its stock figures of {product}")
    public void losesFiguresOf(String skuId) {
        assertThat(hotStore.loseFiguresOf(world.sale().id(), skuId)).as("figures of %s deleted", skuId)
                .isGreaterThanOrEqualTo(4);
    }

    @When("the fast store loses its stock figures of {product} in slice {int} of the sale")
    public void losesFiguresOfASlice(String skuId, int slice) {
        SaleSlice lost = new SaleSlice(new ActivityId(world.sale().id()), slice,
                new SaleSlices(world.sale().slices().orElseThrow()));
        sliceTotalBeforeTheLoss = hotStore.totalOf(lost, skuId);
        assertThat(hotStore.loseFiguresOf(lost, skuId)).as("figures of %s in slice %s deleted", skuId, slice)
                .isGreaterThanOrEqualTo(4);
    }

    @When("the fast store loses everything it held of the sale")
    public void losesEverything() {
        String saleId = world.sale().id();
        assertThat(hotStore.wipe(saleId)).as("keys of the sale deleted").isPositive();
        assertThat(hotStore.keysOf(saleId)).as("keys of the sale left").isEmpty();
    }

    /** As a master of a cluster that came back empty: every key of the slice gone, the other slices untouched. */
    @When("the fast store loses everything it held of slice {int} of the sale")
    public void losesEverythingOfASlice(int slice) {
        SaleSlices slices = new SaleSlices(world.sale().slices().orElseThrow());
        SaleSlice lost = new SaleSlice(new ActivityId(world.sale().id()), slice, slices);
        assertThat(hotStore.wipe(lost)).as("keys of slice %s deleted", slice).isPositive();
        assertThat(hotStore.keysOf(lost)).as("keys of slice %s left", slice).isEmpty();
        for (int k = 0; k < slices.count(); k++) {
            if (k != slice) {
                assertThat(hotStore.keysOf(new SaleSlice(lost.activityId(), k, slices)))
                        .as("keys of slice %s, kept", k).isNotEmpty();
            }
        }
    }

    @Given("the announcement of {buyer}'s reservation is lost before it leaves the fast store")
    public void announcementLost(String buyer) {
        world.reservationOf(buyer);
        assertThat(hotStore.dropOutbox(world.sale().id())).as("announcements dropped from the outbox").isEqualTo(1);
    }

    @Given("the fast store never heard that {buyer}'s reservation became an order")
    public void confirmationLost(String buyer) {
        String saleId = world.sale().id();
        String reservationId = world.reservationOf(buyer);
        assertThat(hotStore.reservationStatuses(saleId)).as("the fast store's statuses")
                .containsEntry(reservationId, "ORDERED");
        hotStore.unconfirm(saleId, reservationId, settledRecordOf(buyer));
        assertThat(hotStore.reservationStatuses(saleId)).as("the fast store's statuses after the damage")
                .containsEntry(reservationId, "RESERVED");
    }

    @When("the fast store loses the sale's settings and stock figures, keeping an old copy of {buyer}'s reservation from before it became an order")
    public void partialLossWithAStaleRecord(String buyer) {
        String saleId = world.sale().id();
        String reservationId = world.reservationOf(buyer);
        assertThat(hotStore.reservationStatuses(saleId)).containsEntry(reservationId, "ORDERED");
        hotStore.loseLedgerKeepingAStaleRecord(saleId, reservationId, settledRecordOf(buyer));
        assertThat(hotStore.reservationStatuses(saleId)).as("the surviving, older copy")
                .containsEntry(reservationId, "RESERVED");
    }

    @Given("the fast store forgets which requests it has answered")
    public void requestsForgotten() {
        assertThat(hotStore.forgetRequests(world.sale().id())).as("the request index deleted").isEqualTo(1);
    }

    @Given("{buyer}'s cancellation won in the fast store while her/his order was placed, and the shop's books never heard of it")
    public void cancelWonWhileOrdered(String buyer) {
        String saleId = world.sale().id();
        String reservationId = world.reservationOf(buyer);
        // The cancel landed in the moment the order committed.
        Instant cancelledAt = Instant.parse(world.api().send(world.api().reservation(world.buyerId(buyer),
                reservationId)).json().path("statusTimes").path("orderedAt").asString());
        hotStore.cancelWonWhileOrdered(saleId, reservationId, settledRecordOf(buyer), cancelledAt);
        assertThat(hotStore.reservationStatuses(saleId)).containsEntry(reservationId, "CANCELLED");
    }

    @Then("the reconciliation reports {buyer}'s cancellation of {product} as missing from the shop's books, and cancels her/his order there")
    public void cancellationMissingAndOrderCancelled(String buyer, String skuId) {
        SkuReport report = reportOf(skuId);
        assertThat(report.classification()).as("found: %s", report).isEqualTo("MISSING_RESERVATION");
        assertThat(report.action()).as("done: %s", report).isEqualTo("CONFIRMED");
        assertThat(report.confirmed()).as("settled: %s", report).containsExactly(world.reservationOf(buyer));
    }

    @Given("the fast store also keeps the records of {int} earlier reservations of {product}, ordered and paid long ago")
    public void paidLongAgo(int count, String skuId) {
        hotStore.addPaidReservations(world.sale().id(), skuId, count);
        slowCommandsSeen = hotStore.newestSlowCommand();
    }

    @Then("no command the fast store ran for the sale took {int} milliseconds or more")
    public void noSlowCommand(int millis) {
        // Redis logs commands slower than its slowlog-log-slower-than (10 ms by default): anything listed here is slow.
        assertThat(hotStore.slowCommandsOfSale(world.sale().id(), slowCommandsSeen))
                .as("the sale's commands in the slow log since the set-up, in microseconds")
                .allSatisfy(micros -> assertThat(micros).isLessThan(millis * 1000L));
    }

    @When("a repair of the {product} is worked out from a look at the fast store")
    public void repairWorkedOut(String skuId) {
        pendingRepair = hotStore.repairFromALookNow(world.sale().id(), skuId);
        holdingsAtTheLook = hotStore.holdings(world.sale().id());
    }

    @When("that repair is applied to the fast store")
    public void applyTheRepair() {
        holdingsBeforeTheRepair = hotStore.holdings(world.sale().id());
        repairResult = hotStore.apply(world.sale().id(), pendingRepair);
    }

    @Then("the fast store refuses the repair as out of date, and every buyer keeps what they hold")
    public void repairRefused() {
        assertThat(repairResult).as("the repair of a look taken before the moves").isEqualTo(LedgerRepairResult.RETRY);
        assertThat(hotStore.holdings(world.sale().id())).as("holdings after the refused repair")
                .isEqualTo(holdingsBeforeTheRepair)
                .isNotEqualTo(holdingsAtTheLook);
    }

    @When("the operator reconciles the sale")
    public void reconcile() {
        lastReport = reconciliation();
    }

    /** Anything on its way between the stores counts as lost only after a grace time: the operator asks again. */
    @When("within {int} seconds a reconciliation of the sale finds the {product} out of line")
    public void reconcileUntilOutOfLine(int seconds, String skuId) {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (true) {
            lastReport = reconciliation();
            SkuReport found = reportOf(skuId);
            if (!SkuReport.NONE.equals(found.classification())) {
                return;
            }
            assertThat(System.nanoTime()).as("a reconciliation finding %s out of line within %s s; last: %s",
                    skuId, seconds, lastReport).isLessThan(deadline);
            pause();
        }
    }

    @Then("the reconciliation finds the fast store behind the shop's books on {product}, and repairs it")
    public void behindAndRepaired(String skuId) {
        SkuReport report = reportOf(skuId);
        assertThat(report.classification()).as("found: %s", report).isEqualTo("REDIS_BEHIND");
        assertThat(report.action()).as("done: %s", report).isEqualTo("REPAIRED");
        assertThat(report.driftIsZero()).as("a drift reported: %s", report).isFalse();
        assertThat(SkuReport.figure(report.actual(), "total")).as("what the damaged fast store showed: %s", report)
                .isZero();
        assertThat(SkuReport.figure(report.expected(), "total")).as("what the books say: %s", report)
                .isEqualTo(world.sale().unitsOf(skuId));
    }

    /**
     * A sale in slices is reconciled slice by slice (ADR 110): one report of the product a slice, in slice order, each
     * reason naming its slice; the damaged slice's is repaired to its share of the books, the others' are clean.
     */
    @Then("the reconciliation repairs the {product} of slice {int} alone from the shop's books, and finds nothing wrong in the other {int} slices")
    public void oneSliceRepaired(String skuId, int damaged, int others) {
        List<SkuReport> reports = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        for (JsonNode sku : lastReport.path("reports")) {
            if (skuId.equals(sku.path("skuId").asString(""))) {
                reports.add(SkuReport.from(sku));
                reasons.add(sku.path("detail").asString(""));
            }
        }
        assertThat(reports).as("one report of %s a slice: %s", skuId, lastReport).hasSize(others + 1);
        for (int k = 0; k < reports.size(); k++) {
            SkuReport report = reports.get(k);
            assertThat(reasons.get(k)).as("the report names its slice").contains("slice " + k + " of " + reports.size());
            if (k == damaged) {
                assertThat(report.classification()).as("found: %s", report).isEqualTo("REDIS_BEHIND");
                assertThat(report.action()).as("done: %s", report).isEqualTo("REPAIRED");
                assertThat(SkuReport.figure(report.actual(), "total")).as("what the damaged slice showed").isZero();
                assertThat(SkuReport.figure(report.expected(), "total"))
                        .as("the slice's allotment by the books, what it held before the loss")
                        .isEqualTo(sliceTotalBeforeTheLoss);
            } else {
                assertThat(report.isClean()).as("slice %s: nothing found, nothing done: %s", k, report).isTrue();
            }
        }
    }

    @Then("the reconciliation finds nothing wrong with {product}")
    public void nothingWrong(String skuId) {
        SkuReport report = reportOf(skuId);
        assertThat(report.isClean()).as("nothing found, nothing done: %s", report).isTrue();
    }

    @Then("the reconciliation sends no reservation of the sale again")
    public void nothingSentAgain() {
        for (var product : world.sale().products()) {
            SkuReport report = reportOf(product.skuId());
            assertThat(report.redriven()).as("sent again: %s", report).isEmpty();
            assertThat(report.action()).as("done: %s", report).isNotEqualTo("REDRIVEN");
        }
    }

    @Then("the reconciliation reports the fast store waiting for the order pipeline before it is rebuilt")
    public void awaitingThePipeline() {
        assertThat(lastReport.path("hotStore").asString("")).as("the fast store: %s", lastReport)
                .isEqualTo("AWAITING_PIPELINE");
    }

    /** The rebuild waits for the order consumer to catch up with the mark taken at the loss: the operator asks again. */
    @When("within {int} seconds a reconciliation of the sale rebuilds the fast store from the shop's books")
    public void reconcileUntilRebuilt(int seconds) {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (true) {
            lastReport = reconciliation();
            if ("REBUILT".equals(lastReport.path("hotStore").asString(""))) {
                return;
            }
            assertThat(System.nanoTime()).as("a reconciliation rebuilding the sale within %s s; last: %s", seconds,
                    lastReport).isLessThan(deadline);
            pause();
        }
    }

    @Then("the reconciliation reports the fast store rebuilt from the shop's books")
    public void rebuilt() {
        assertThat(lastReport.path("hotStore").asString("")).as("the fast store: %s", lastReport)
                .isEqualTo("REBUILT");
    }

    @Then("the reconciliation reports {buyer}'s reservation of {product} as unknown to the shop's books, and sends it again")
    public void unknownAndRedriven(String buyer, String skuId) {
        SkuReport report = reportOf(skuId);
        assertThat(report.classification()).as("found: %s", report).isEqualTo("UNKNOWN_RESERVATION");
        assertThat(report.action()).as("done: %s", report).isEqualTo("REDRIVEN");
        assertThat(report.redriven()).as("sent again: %s", report).containsExactly(world.reservationOf(buyer));
    }

    @Then("the reconciliation reports {buyer}'s order of {product} as missing from the fast store, and confirms it there")
    public void missingAndConfirmed(String buyer, String skuId) {
        SkuReport report = reportOf(skuId);
        assertThat(report.classification()).as("found: %s", report).isEqualTo("MISSING_RESERVATION");
        assertThat(report.action()).as("done: %s", report).isEqualTo("CONFIRMED");
        assertThat(report.confirmed()).as("confirmed: %s", report).containsExactly(world.reservationOf(buyer));
    }

    /** A scenario that failed while holding the schedule back must not leave the next ones without it. */
    @After
    public void releaseWarmUps() {
        if (warmUpsHeld) {
            warmUps.start();
            warmUpsHeld = false;
        }
    }

    JsonNode reconciliation() {
        ApiAnswer answer = world.api().send(world.api().reconcile(world.sale().id()));
        assertThat(answer.status()).as("reconciling: %s", answer.describe()).isEqualTo(200);
        assertThat(answer.text("activityId")).as("the report's sale: %s", answer.describe())
                .isEqualTo(world.sale().id());
        return answer.json();
    }

    /** The latest reconciliation the operator asked for, for steps that read it. */
    JsonNode lastReport() {
        return lastReport;
    }

    private SkuReport reportOf(String skuId) {
        assertThat(lastReport).as("a reconciliation report").isNotNull();
        return find(lastReport, skuId).orElseThrow(() -> new AssertionError(
                "the reconciliation does not report on " + skuId + ": " + lastReport));
    }

    static Optional<SkuReport> find(JsonNode report, String skuId) {
        for (JsonNode sku : report.path("reports")) {
            if (skuId.equals(sku.path("skuId").asString(""))) {
                return Optional.of(SkuReport.from(sku));
            }
        }
        return Optional.empty();
    }

    private static void pause() {
        try {
            Thread.sleep(POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reconciling again", e);
        }
    }

    /** What the fast store wrote of the buyer's reservation; it keeps no record once it is an order (ADR 71). */
    private ReservationRecord settledRecordOf(String buyer) {
        String reservationId = world.reservationOf(buyer);
        Map<String, Long> lines = new LinkedHashMap<>();
        for (JsonNode line : world.lastAnswerOf(buyer).json().path("items")) {
            lines.put(line.path("skuId").asString(""), line.path("quantity").asLong());
        }
        Instant reservedAt = Instant.parse(world.api().send(world.api().reservation(world.buyerId(buyer),
                reservationId)).json().path("statusTimes").path("reservedAt").asString());
        return hotStore.settledRecord(world.sale().id(), reservationId, lines, reservedAt);
    }
}
