package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;
import io.flashsale.acceptance.api.FlashsaleApi;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/** A sale under steady traffic, reconciled while reservations and orders are on their way between the stores. */
public class BusySaleSteps {

    private static final Duration RECONCILE_EVERY = Duration.ofMillis(400);
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private final SaleWorld world;
    private final ReconciliationSteps reconciliations;
    private final List<JsonNode> reports = new ArrayList<>();

    public BusySaleSteps(SaleWorld world, ReconciliationSteps reconciliations) {
        this.world = world;
        this.reconciliations = reconciliations;
    }

    @When("{int} buyers each reserve one {product}, spread over {int} seconds, while the operator reconciles the sale again and again")
    public void busySale(int buyers, String skuId, int seconds) {
        long spacingNanos = Duration.ofSeconds(seconds).toNanos() / buyers;
        long start = System.nanoTime();
        List<Future<ApiAnswer>> answers = new ArrayList<>();
        // The senders' threads must not touch the scenario's beans: they get the API itself.
        FlashsaleApi api = world.api();
        try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int buyer = 1; buyer <= buyers; buyer++) {
                ApiCall call = world.api().reserve(world.sale().id(), world.buyerId("Buyer" + buyer), Map.of(
                        "requestId", "busy-" + buyer, "items", List.of(Map.of("skuId", skuId, "quantity", 1))));
                long sendAt = start + (buyer - 1) * spacingNanos;
                answers.add(senders.submit(() -> {
                    sleepUntil(sendAt);
                    return api.send(call);
                }));
            }
            // The operator's reconciliations run in this thread, between and after the buyers' requests.
            long end = start + Duration.ofSeconds(seconds).toNanos();
            while (System.nanoTime() < end) {
                reports.add(reconciliations.reconciliation());
                pause();
            }
            world.crowdAnswered(answers.stream().map(BusySaleSteps::answer).toList());
        }
        reports.add(reconciliations.reconciliation());
    }

    @Then("no reconciliation found any drift or repaired anything, in at least {int} runs")
    public void noDrift(int runs) {
        assertThat(reports).as("reconciliations run").hasSizeGreaterThanOrEqualTo(runs);
        for (JsonNode report : reports) {
            assertThat(report.path("hotStore").asString("")).as("the fast store: %s", report).isEqualTo("LOADED");
            assertThat(report.path("reports").isEmpty()).as("a report per product: %s", report).isFalse();
            report.path("reports").forEach(sku -> assertThat(SkuReport.from(sku).isClean())
                    .as("nothing found, nothing done: %s", sku).isTrue());
        }
    }

    private static ApiAnswer answer(Future<ApiAnswer> future) {
        try {
            return future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a buyer's answer", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("a buyer got no answer", e);
        }
    }

    private static void pause() {
        try {
            sleepUntil(System.nanoTime() + RECONCILE_EVERY.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted between reconciliations", e);
        }
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }
}
