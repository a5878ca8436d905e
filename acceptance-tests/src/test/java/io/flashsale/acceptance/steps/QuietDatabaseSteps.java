package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Crowds at a sale the fast store does not hold, and what that cost the shop's database: the service's look-ups of
 * the sale in the database, as its metrics count them (each miss of its memory of sales is one look-up).
 */
public class QuietDatabaseSteps {

    private static final String LOOKUPS_MISSED =
            "/actuator/metrics/cache.gets?tag=cache:activity-lookups&tag=result:miss";

    private final SaleWorld world;
    private List<ApiAnswer> crowd = List.of();
    private double lookUpsBefore;
    private long crowdNanos;

    public QuietDatabaseSteps(SaleWorld world) {
        this.world = world;
    }

    @When("{int} buyers try to reserve in a sale that does not exist")
    public void aCrowdAtASaleThatDoesNotExist(int buyers) {
        sendCrowd(world.unique("no-such-sale"), "nobody-sells-this", buyers);
    }

    @When("{int} buyers try to reserve {int} {product}")
    public void aCrowdAtTheSale(int buyers, int quantity, String product) {
        sendCrowd(world.sale().id(), product, buyers, quantity);
    }

    @Then("every one of them is told the sale does not exist")
    public void everyoneToldItDoesNotExist() {
        assertThat(statusAndCode()).as("answers of the crowd").containsExactly(Map.entry("404 ACTIVITY_NOT_FOUND",
                (long) crowd.size()));
    }

    @Then("every one of them is asked to come back in a moment")
    public void everyoneAskedToComeBack() {
        assertThat(statusAndCode()).as("answers of the crowd").containsExactly(Map.entry("503 NOT_READY",
                (long) crowd.size()));
    }

    @Then("the shop's database was asked about the sale at most once every {int} seconds")
    public void theDatabaseWasAskedRarely(int seconds) {
        double lookUps = lookUps() - lookUpsBefore;
        long allowed = Duration.ofNanos(crowdNanos).toMillis() / Duration.ofSeconds(seconds).toMillis() + 1;
        assertThat(lookUps).as("look-ups in the database for %d requests in %d ms", crowd.size(),
                Duration.ofNanos(crowdNanos).toMillis()).isBetween(1.0, (double) allowed);
    }

    private void sendCrowd(String saleId, String product, int buyers) {
        sendCrowd(saleId, product, buyers, 1);
    }

    private void sendCrowd(String saleId, String product, int buyers, int quantity) {
        List<ApiCall> calls = new ArrayList<>(buyers);
        for (int i = 0; i < buyers; i++) {
            calls.add(world.api().reserve(saleId, world.buyerId("buyer-" + i),
                    Map.of("items", List.of(Map.of("skuId", product, "quantity", quantity)))));
        }
        lookUpsBefore = lookUps();
        long start = System.nanoTime();
        crowd = world.api().sendTogether(calls);
        crowdNanos = System.nanoTime() - start;
    }

    private Map<String, Long> statusAndCode() {
        return crowd.stream().collect(Collectors.groupingBy(answer -> answer.status() + " " + answer.code(),
                TreeMap::new, Collectors.counting()));
    }

    private double lookUps() {
        ApiAnswer metric = world.operators().send(world.operators().asAdmin(ApiCall.get(LOOKUPS_MISSED)));
        assertThat(metric.status()).as(metric.describe()).isEqualTo(200);
        JsonNode measurements = metric.json().path("measurements");
        return measurements.get(0).path("value").asDouble();
    }
}
