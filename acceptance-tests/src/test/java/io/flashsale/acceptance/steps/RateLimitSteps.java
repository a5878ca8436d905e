package io.flashsale.acceptance.steps;

import io.cucumber.java.After;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;
import io.flashsale.acceptance.api.FlashsaleApi;
import io.flashsale.acceptance.service.InProcessInstance;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;
import org.springframework.context.ConfigurableApplicationContext;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two service instances of their own (sharing Redis, the broker and a database of their own) with the per-buyer rate
 * limit the scenario names; the refusals' codes and headers are checked here, the feature speaks of being told to
 * slow down.
 */
public class RateLimitSteps {

    private static final String ADMIN_TOKEN = "rate-limit-admin-token-0123456789abcdef";
    private static final String SKU = "t-shirt";

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();
    private final List<FlashsaleApi> apis = new ArrayList<>();
    private String sale;
    private int aliceReserved;
    private int bobReserved;
    private ApiAnswer lastRefusal;
    private List<ApiAnswer> refusalsOfAlice = List.of();

    @After
    public void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
        instances.clear();
        apis.clear();
    }

    @Given("two service instances selling one sale of {int} T-shirts, each buyer allowed {int} attempts at once and {int} more a second")
    public void twoInstances(int stock, int burst, int perSecond) {
        String database = TestServices.mariadb().freshDatabase("flashsale_it_ratelimit");
        String run = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        for (int i = 0; i < 2; i++) {
            ConfigurableApplicationContext instance = start(database, run, burst, perSecond);
            instances.add(instance);
            apis.add(new FlashsaleApi(Integer.parseInt(instance.getEnvironment().getRequiredProperty("local.server.port")),
                    ADMIN_TOKEN));
        }
        sale = "rate-limit-" + run;
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ApiAnswer created = apis.getFirst().send(apis.getFirst().createSale(Map.of(
                "id", sale, "name", "T-shirt sale", "startsAt", now.minusSeconds(60).toString(),
                "endsAt", now.plus(Duration.ofHours(1)).toString(), "perUserLimit", stock, "paymentTimeoutSeconds", 900,
                "items", List.of(Map.of("skuId", SKU, "stock", stock)))));
        assertThat(created.status()).as(created.describe()).isEqualTo(201);
        ApiAnswer warmed = apis.getFirst().send(apis.getFirst().warmUp(sale));
        assertThat(warmed.status()).as(warmed.describe()).isEqualTo(200);
    }

    @When("Alice tries to reserve a T-shirt {int} times as fast as she can, alternating between the two instances")
    public void aliceHammers(int attempts) {
        List<ApiAnswer> refusals = new ArrayList<>();
        for (int i = 0; i < attempts; i++) {
            ApiAnswer answer = reserve(apis.get(i % 2), "alice");
            if (answer.status() == 202) {
                aliceReserved++;
            } else {
                assertThat(answer.status()).as(answer.describe()).isEqualTo(429);
                refusals.add(answer);
            }
        }
        refusalsOfAlice = refusals;
    }

    @Then("between {int} and {int} of Alice's attempts reserve a T-shirt")
    public void aliceReservedBetween(int least, int most) {
        assertThat(aliceReserved).isBetween(least, most);
    }

    @Then("each of her other attempts is told to slow down, with how long to wait before trying again")
    public void refusalsSaySlowDown() {
        assertThat(refusalsOfAlice).isNotEmpty();
        for (ApiAnswer refusal : refusalsOfAlice) {
            assertThat(refusal.code()).as(refusal.describe()).isEqualTo("RATE_LIMITED");
            assertThat(refusal.header("Retry-After")).as(refusal.describe()).hasValueSatisfying(
                    seconds -> assertThat(Long.parseLong(seconds)).isPositive());
            assertThat(refusal.header("RateLimit-Limit")).as(refusal.describe()).contains("10");
            assertThat(refusal.header("RateLimit-Remaining")).as(refusal.describe()).contains("0");
            assertThat(refusal.header("RateLimit-Reset")).as(refusal.describe()).isPresent();
        }
        lastRefusal = refusalsOfAlice.getLast();
    }

    @Then("Bob reserves a T-shirt on either instance at once")
    public void bobGoesThrough() {
        for (FlashsaleApi api : apis) {
            ApiAnswer answer = reserve(api, "bob");
            assertThat(answer.status()).as(answer.describe()).isEqualTo(202);
            bobReserved++;
        }
    }

    @Then("as many T-shirts are reserved as Alice and Bob were told they reserved")
    public void ledgerAgrees() {
        ApiAnswer stock = apis.getLast().send(apis.getLast().stockView(sale));
        assertThat(stock.status()).as(stock.describe()).isEqualTo(200);
        long reserved = stock.json().path("items").get(0).path("reserved").asLong();
        assertThat(reserved).isEqualTo(aliceReserved + bobReserved);
    }

    @When("Alice waits as long as she was told")
    public void aliceWaits() throws InterruptedException {
        Thread.sleep(Duration.ofSeconds(Long.parseLong(lastRefusal.header("Retry-After").orElseThrow())));
    }

    @Then("Alice reserves a T-shirt again")
    public void aliceReservesAgain() {
        ApiAnswer answer = reserve(apis.getFirst(), "alice");
        assertThat(answer.status()).as(answer.describe()).isEqualTo(202);
    }

    private ApiAnswer reserve(FlashsaleApi api, String buyer) {
        return api.send(api.reserve(sale, buyer, Map.of("items", List.of(Map.of("skuId", SKU, "quantity", 1)))));
    }

    private static ConfigurableApplicationContext start(String database, String run, int burst, int perSecond) {
        RedisEndpoint redis = TestServices.redis();
        return InProcessInstance.start(redis.host(), redis.port(), database, "ratelimit", run, ADMIN_TOKEN,
                "--flashsale.relay.enabled=false",
                "--flashsale.warm-up.schedule-enabled=false",
                "--flashsale.archive.schedule-enabled=false",
                "--flashsale.reconciliation.schedule-enabled=false",
                "--flashsale.lifecycle.expiry-enabled=false",
                "--flashsale.rate-limit.buyer.burst=" + burst,
                "--flashsale.rate-limit.buyer.per-second=" + perSecond,
                // Each run's buckets apart from other runs' on the shared Redis.
                "--flashsale.rate-limit.key-prefix=fs:rl:" + run + ":");
    }
}
