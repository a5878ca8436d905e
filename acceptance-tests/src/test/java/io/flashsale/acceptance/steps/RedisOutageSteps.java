package io.flashsale.acceptance.steps;

import io.cucumber.java.After;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;
import io.flashsale.acceptance.api.FlashsaleApi;
import io.flashsale.acceptance.service.InProcessInstance;
import io.flashsale.testsupport.MariaDbEndpoint;
import io.flashsale.testsupport.RedisServerProcess;
import io.flashsale.testsupport.TestServices;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A service instance, in this JVM, on a redis-server of the scenario's own (which the scenario kills and starts again)
 * and a shop database of its own; Kafka is the shared one. Every answer any buyer got is kept, to show none was a 500.
 */
public class RedisOutageSteps {

    private static final String ADMIN_TOKEN = "outage-admin-token-0123456789abcdef";
    private static final String SKU = "umbrella";
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private RedisServerProcess redis;
    private final List<ApiAnswer> answers = new ArrayList<>();
    private final Map<String, String> orderedDuringTheOutage = new LinkedHashMap<>();
    private final String run = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    private ConfigurableApplicationContext instance;
    private FlashsaleApi api;
    private FlashsaleApi operators;
    private String database;
    private String sale;
    private int buyers;

    @After("@redisOutage")
    public void stop() {
        if (instance != null) {
            instance.close();
            instance = null;
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Given("a service instance runs on a fast store of its own, with a sale of {int} units and a limit of {int} per buyer")
    public void anInstanceOnItsOwnRedis(int units, int limit) {
        redis = RedisServerProcess.onFreePort(RedisServerProcess.Persistence.NONE).start();
        database = TestServices.mariadb().freshDatabase("flashsale_it_outage");
        instance = start();
        int port = Integer.parseInt(instance.getEnvironment().getRequiredProperty("local.server.port"));
        api = new FlashsaleApi(port, ADMIN_TOKEN);
        operators = new FlashsaleApi(
                Integer.parseInt(instance.getEnvironment().getRequiredProperty("local.management.port")), ADMIN_TOKEN);
        sale = "outage-" + run;
        Instant now = Instant.now();
        ApiAnswer created = api.send(api.createSale(Map.of("id", sale, "name", "Rainy day",
                "startsAt", now.minusSeconds(60).toString(), "endsAt", now.plusSeconds(3600).toString(),
                "perUserLimit", limit, "items", List.of(Map.of("skuId", SKU, "stock", units)))));
        assertThat(created.status()).as(created.describe()).isEqualTo(201);
        ApiAnswer warmedUp = api.send(api.warmUp(sale));
        assertThat(warmedUp.status()).as(warmedUp.describe()).isEqualTo(200);
    }

    @Given("{int} buyers have reserved a unit, and their orders are in the shop's database")
    public void buyersReserved(int count) {
        for (int i = 0; i < count; i++) {
            ApiAnswer reserved = reserveUntilDecided(nextBuyer());
            assertThat(reserved.status()).as(reserved.describe()).isEqualTo(202);
        }
        // Reservations Redis took and had not relayed yet would die with it (ADR 39): this outage comes after.
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(orders()).isEqualTo((long) count));
    }

    @When("that fast store is killed")
    public void redisIsKilled() {
        redis.kill();
    }

    @Then("{int} more buyers can each reserve a unit, taken by the database at once as an order")
    public void buyersReserveOnTheDatabase(int count) {
        for (int i = 0; i < count; i++) {
            String buyer = nextBuyer();
            ApiAnswer reserved = reserveUntilDecided(buyer);
            assertThat(reserved.status()).as(reserved.describe()).isEqualTo(202);
            assertThat(reserved.text("status")).as(reserved.describe()).isEqualTo("ORDERED");
            orderedDuringTheOutage.put(reserved.text("reservationId"), buyer);
        }
    }

    @Then("the next buyer is told the sale is sold out")
    public void theNextIsSoldOut() {
        ApiAnswer refused = reserveUntilDecided(nextBuyer());
        assertThat(refused.status()).as(refused.describe()).isEqualTo(409);
        assertThat(refused.code()).isEqualTo("SOLD_OUT");
    }

    @Then("a buyer who already has a unit cannot reserve another")
    public void aBuyerCannotHaveTwo() {
        String buyer = orderedDuringTheOutage.values().iterator().next();
        ApiAnswer refused = reserveUntilDecided(buyer);
        assertThat(refused.status()).as(refused.describe()).isEqualTo(409);
        assertThat(refused.code()).isIn("LIMIT_EXCEEDED", "SOLD_OUT");
    }

    /**
     * The fast store may hold a reservation the database has not recorded yet (its order on its way), so while the
     * fast store is out no instance can say such a reservation does not exist (ADR 116).
     */
    @Then("a buyer asking after a reservation the shop's database has not recorded is asked to try again, not told it "
            + "does not exist")
    public void anUnrecordedReservationIsTryAgain() {
        for (ApiAnswer answer : asksAfterAnUnrecordedReservation()) {
            assertThat(answer.status()).as(answer.describe()).isEqualTo(503);
            assertThat(answer.code()).as(answer.describe()).isEqualTo("DEGRADED");
            assertThat(answer.header("Retry-After")).as(answer.describe()).isPresent();
        }
    }

    @Then("the same buyer asking after it again is told there is no such reservation")
    public void anUnrecordedReservationIsNotFoundOnceTheFastStoreIsBack() {
        for (ApiAnswer answer : asksAfterAnUnrecordedReservation()) {
            assertThat(answer.status()).as(answer.describe()).isEqualTo(404);
            assertThat(answer.code()).as(answer.describe()).isEqualTo("RESERVATION_NOT_FOUND");
        }
    }

    /**
     * The buyer's read and cancellation of a reservation id of the sale that no store holds (buyers do not pay here:
     * the payment provider confirms payments).
     */
    private List<ApiAnswer> asksAfterAnUnrecordedReservation() {
        String buyer = "asker-" + run;
        String reservation = sale + ".unrecorded" + run;
        return List.of(keep(api.send(api.reservation(buyer, reservation))),
                keep(api.send(api.cancel(buyer, reservation))));
    }

    @When("{int} of the buyers who ordered while the fast store was down cancel")
    public void buyersCancel(int count) {
        orderedDuringTheOutage.entrySet().stream().limit(count).forEach(order -> {
            ApiAnswer cancelled = keep(api.send(api.cancel(order.getValue(), order.getKey())));
            assertThat(cancelled.status()).as(cancelled.describe()).isEqualTo(200);
        });
    }

    @When("the fast store is started again with nothing in it")
    public void redisStartsEmpty() {
        redis.start();
    }

    @Then("within {int} seconds the fast store takes the reservations again")
    public void redisTakesOver(int seconds) {
        await().atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            ApiAnswer readiness = operators.send(operators.asAdmin(ApiCall.get("/actuator/health/readiness")));
            assertThat(readiness.json().path("components").path("hotStore").path("details").path("decidedBy")
                    .asString()).as(readiness.describe()).isEqualTo("redis");
        });
    }

    @Then("exactly {int} more buyers can each reserve a unit before the sale is sold out again")
    public void buyersReserveOnRedis(int count) {
        int accepted = 0;
        while (true) {
            ApiAnswer answer = reserveUntilDecided(nextBuyer());
            if (answer.status() == 409) {
                assertThat(answer.code()).as(answer.describe()).isEqualTo("SOLD_OUT");
                break;
            }
            assertThat(answer.status()).as(answer.describe()).isEqualTo(202);
            assertThat(answer.text("status")).as("taken by Redis").isEqualTo("RESERVED");
            accepted++;
            assertThat(accepted).as("units sold after Redis came back").isLessThanOrEqualTo(count);
        }
        assertThat(accepted).isEqualTo(count);
    }

    @Then("the shop's database has sold exactly {int} units, no buyer more than {int}")
    public void theDatabaseSold(int units, int limit) {
        JdbcTemplate jdbc = shopDatabase();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(orders()).isEqualTo((long) units));
        assertThat(jdbc.queryForObject("SELECT sold FROM activity_item WHERE activity_id = ? AND sku_id = ?",
                Long.class, sale, SKU)).isEqualTo((long) units);
        assertThat(jdbc.queryForObject("SELECT MAX(quantity) FROM buyer_purchase WHERE activity_id = ?",
                Long.class, sale)).isLessThanOrEqualTo(limit);
    }

    @Then("no buyer was ever answered with a server error")
    public void noServerError() {
        assertThat(answers).extracting(ApiAnswer::status).doesNotContain(500);
    }

    /** A 503 (Redis just failed, the database path is full, or Redis is being rebuilt) is tried again shortly. */
    private ApiAnswer reserveUntilDecided(String buyer) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            ApiAnswer answer = keep(api.send(api.reserve(sale, buyer,
                    Map.of("items", List.of(Map.of("skuId", SKU, "quantity", 1))))));
            if (answer.status() != 503) {
                return answer;
            }
            assertThat(answer.code()).as(answer.describe()).isIn("DEGRADED", "NOT_READY");
            assertThat(answer.header("Retry-After")).isPresent();
            assertThat(System.nanoTime()).as("decided within " + PATIENCE).isLessThan(deadline);
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private JdbcTemplate shopDatabase() {
        MariaDbEndpoint mariadb = TestServices.mariadb();
        return new JdbcTemplate(new DriverManagerDataSource(mariadb.jdbcUrl(database), mariadb.username(),
                mariadb.password()));
    }

    /** Orders of the sale that hold units in the shop's database. */
    private long orders() {
        return shopDatabase().queryForObject(
                "SELECT COUNT(*) FROM purchase_order WHERE activity_id = ? AND status IN ('ORDERED', 'PAID')",
                Long.class, sale);
    }

    private ApiAnswer keep(ApiAnswer answer) {
        answers.add(answer);
        return answer;
    }

    private String nextBuyer() {
        return "buyer-" + (++buyers) + "-" + run;
    }

    private ConfigurableApplicationContext start() {
        return InProcessInstance.start("127.0.0.1", redis.port(), database, "outage", run, ADMIN_TOKEN,
                "--flashsale.known-refusals.memory=200ms",
                "--flashsale.outage.probe-interval=200ms",
                "--flashsale.outage.minimum-calls=2",
                "--flashsale.outage.sliding-window=4",
                "--flashsale.warm-up.schedule-enabled=false",
                "--flashsale.archive.schedule-enabled=false",
                "--flashsale.reconciliation.schedule-enabled=false");
    }
}
