package io.flashsale.acceptance.crash;

import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.FlashsaleApi;
import io.flashsale.acceptance.api.SaleSpec;
import io.flashsale.acceptance.inspect.HotStore;
import io.flashsale.acceptance.inspect.ShopDatabase;
import io.flashsale.acceptance.inspect.ShopDatabase.ItemRecord;
import io.flashsale.acceptance.inspect.ShopDatabase.OrderRecord;
import io.flashsale.acceptance.inspect.ShopDatabase.StockMovements;
import io.flashsale.testsupport.ServiceProcess;
import io.flashsale.acceptance.service.ServiceSettings;
import io.flashsale.testsupport.MariaDbEndpoint;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Crash test (e) of the order pipeline: the whole service process, the runnable jar in a JVM of its own, is killed
 * with SIGKILL while buyers are reserving, three times at different moments, and started again on the same settings.
 * Redis, MariaDB and the Kafka broker (in this test's JVM) live on. Afterwards every reservation a buyer was told
 * was accepted is exactly one order, every order is a reservation Redis accepted, and nothing is oversold.
 * The service's output is in {@code target/service-crash/life-N.log}.
 */
class ServiceCrashIT {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_crash");
    private static final String ADMIN_TOKEN = "crash-test-admin-token-0123456789abcdef";
    private static final String SKU = "crash-item";
    private static final int STOCK = 300;
    /** Accepted answers (over all lives so far) at which the service is killed. */
    private static final List<Integer> KILL_POINTS = List.of(50, 150, 250);
    private static final int CLIENTS = 12;
    private static final Duration START_PATIENCE = Duration.ofSeconds(90);
    private static final Duration DRAIN_PATIENCE = Duration.ofSeconds(90);
    // Small heap, quick start: the service's speed is not what this test is about.
    private static final List<String> JVM_OPTIONS = List.of("-Xms128m", "-Xmx512m", "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC");

    @Test
    void givenBuyersReserving_whenTheServiceIsKilledAndRestartedThreeTimes_thenEveryAcceptedReservationIsExactlyOneOrder() {
        Path jar = ServiceProcess.runnableJar();
        assumeTrue(Files.isRegularFile(jar), "the runnable jar " + jar + " is missing: build bootstrap first "
                + "(./mvnw -pl bootstrap -am install -DskipTests), or run this module from the root reactor");

        String run = "crash-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        MariaDbEndpoint mariadb = TestServices.mariadb();
        mariadb.recreateDatabase(DATABASE);
        int port = ServiceProcess.freePort();
        Map<String, String> settings = new LinkedHashMap<>(ServiceSettings.onTestServices(run, DATABASE, port, ADMIN_TOKEN));
        // Entries a killed relay left pending are taken over soon, not after the production default.
        settings.put("flashsale.relay.stale-after", "2s");
        Path logs = Path.of(System.getProperty("basedir", "."), "target", "service-crash");
        FlashsaleApi api = new FlashsaleApi(port, ADMIN_TOKEN);
        ShopDatabase books = new ShopDatabase(mariadb.jdbcUrl(DATABASE), mariadb.username(), mariadb.password());

        long started = System.nanoTime();
        int life = 1;
        ServiceProcess service = startLife(jar, settings, logs, life);
        try (HotStore hotStore = new HotStore(TestServices.redis().uri())) {
            String saleId = openSale(api, run);
            BuyerStream buyers = new BuyerStream(saleId, SKU, run + "-buyer-");
            List<Long> inFlightAtKills = new ArrayList<>();
            for (int killPoint : KILL_POINTS) {
                BuyerStream.Round round = buyers.startRound(api, CLIENTS);
                round.awaitAccepted(killPoint, Duration.ofSeconds(60));
                service.kill();
                round.stop(Duration.ofSeconds(60));
                HotStore.Counters atKill = hotStore.counters(saleId, SKU);
                inFlightAtKills.add(atKill.reserved());
                System.out.printf("[crash] life %d (pid %d) killed after %d accepted answers; %s; left in flight: "
                                + "%d reserved in Redis, %d orders in MySQL%n", life, service.pid(), killPoint,
                        buyers.describe(), atKill.reserved(), books.orders(saleId).size());
                service = startLife(jar, settings, logs, ++life);
            }
            // The last life sells the rest: the whole stock went through a service killed three times.
            BuyerStream.Round lastRound = buyers.startRound(api, CLIENTS);
            lastRound.awaitFinished(Duration.ofSeconds(60));
            System.out.printf("[crash] sold out in life %d; %s%n", life, buyers.describe());

            assertThat(buyers.unexpectedAnswers()).as("answers other than accepted or sold out").isEmpty();
            // A kill that found the pipeline idle would prove nothing: at least one must have cut work in flight.
            assertThat(inFlightAtKills).as("units reserved but not yet ordered at each kill").anyMatch(units -> units > 0);
            Map<String, String> accepted = buyers.accepted();
            await("the pipeline drained: nothing reserved, every sold unit an order")
                    .atMost(DRAIN_PATIENCE).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertDrained(api, books, saleId));
            assertEveryAcceptedReservationIsExactlyOneOrder(accepted, books.orders(saleId));
            assertEveryOrderIsAReservationRedisAccepted(books.orders(saleId), hotStore.reservationStatuses(saleId));
            assertNothingOversold(api, books, saleId);
            System.out.printf("[crash] %d kills, %d lives, %d accepted answers, %d requests unanswered, %.1f s%n",
                    KILL_POINTS.size(), life, accepted.size(), buyers.unanswered(),
                    (System.nanoTime() - started) / 1e9);
        } finally {
            service.close();
        }
    }

    private static ServiceProcess startLife(Path jar, Map<String, String> settings, Path logs, int life) {
        return ServiceProcess.start(jar, JVM_OPTIONS, settings, logs.resolve("life-" + life + ".log"))
                .awaitReady(START_PATIENCE);
    }

    private static String openSale(FlashsaleApi api, String run) {
        Instant startsAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofMinutes(1));
        var sale = new SaleSpec(run, "Crash test " + run, startsAt, startsAt.plus(Duration.ofHours(2)), 1,
                List.of(SaleSpec.Product.of(SKU, STOCK)));
        ApiAnswer created = api.send(api.createSale(sale.toBody()));
        assertThat(created.status()).as("creating the sale: %s", created.describe()).isEqualTo(201);
        ApiAnswer warmed = api.send(api.warmUp(sale.id()));
        assertThat(warmed.status()).as("warming up: %s", warmed.describe()).isEqualTo(200);
        return sale.id();
    }

    /** Redis holds nothing as reserved, and every unit it counts as sold is a placed order in MySQL. */
    private static void assertDrained(FlashsaleApi api, ShopDatabase books, String saleId) {
        HotStock hot = HotStock.of(api, saleId);
        ItemRecord item = books.item(saleId, SKU);
        long orderedUnits = books.orders(saleId).stream().filter(OrderRecord::isOrdered)
                .mapToLong(OrderRecord::units).sum();
        assertThat(hot.reserved()).as("units Redis still holds as reserved (%s)", hot).isZero();
        assertThat(item.sold()).as("MySQL sold vs Redis sold (%s)", hot).isEqualTo(hot.sold());
        assertThat(orderedUnits).as("units in ORDERED orders vs MySQL sold").isEqualTo(item.sold());
    }

    private static void assertEveryAcceptedReservationIsExactlyOneOrder(Map<String, String> accepted,
                                                                        List<OrderRecord> orders) {
        Map<String, List<OrderRecord>> byReservation = orders.stream()
                .collect(Collectors.groupingBy(OrderRecord::reservationId));
        assertThat(byReservation.values()).as("orders per reservation").allMatch(same -> same.size() == 1);
        assertThat(byReservation.keySet()).as("orders of the reservations the buyers were told were accepted")
                .containsAll(accepted.keySet());
        for (String reservationId : accepted.keySet()) {
            OrderRecord order = byReservation.get(reservationId).getFirst();
            assertThat(order.status()).as("status of %s", order).isEqualTo("ORDERED");
            assertThat(order.buyerId()).as("buyer of %s", order).isEqualTo(accepted.get(reservationId));
            assertThat(order.units()).as("units of %s", order).isEqualTo(1);
            assertThat(order.lineCount()).as("lines of %s", order).isEqualTo(1);
        }
    }

    private static void assertEveryOrderIsAReservationRedisAccepted(List<OrderRecord> orders,
                                                                   Map<String, String> redisStatuses) {
        Map<String, OrderRecord> byId = orders.stream()
                .collect(Collectors.toMap(OrderRecord::reservationId, Function.identity()));
        assertThat(redisStatuses.keySet()).as("reservations Redis accepted vs orders in MySQL")
                .containsExactlyInAnyOrderElementsOf(byId.keySet());
        assertThat(redisStatuses).as("Redis statuses of the ordered reservations")
                .allSatisfy((id, status) -> assertThat(status).as(id).isEqualTo("ORDERED"));
    }

    private static void assertNothingOversold(FlashsaleApi api, ShopDatabase books, String saleId) {
        ItemRecord item = books.item(saleId, SKU);
        StockMovements movements = books.movements(saleId, SKU);
        List<OrderRecord> orders = books.orders(saleId);
        HotStock hot = HotStock.of(api, saleId);
        assertThat(item.sold()).as("MySQL sold <= stock").isLessThanOrEqualTo(item.stock());
        assertThat(item.stock()).as("MySQL stock").isEqualTo(STOCK);
        // Sold out in Redis and fully drained: every unit Redis took is an order, none lost, none doubled.
        assertThat(hot.available()).as("Redis available after the sell-out (%s)", hot).isZero();
        assertThat(hot.reserved() + hot.sold()).as("Redis reserved + sold vs MySQL sold").isEqualTo(item.sold());
        assertThat(item.sold()).as("MySQL sold after the sell-out").isEqualTo(STOCK);
        assertThat(movements.sold()).as("stock movements vs MySQL sold (%s)", movements).isEqualTo(item.sold());
        assertThat(movements.movementCount()).as("one stock movement per order (%s)", movements)
                .isEqualTo(orders.size());
        assertThat(movements.restored()).as("units given back (%s)", movements).isZero();
    }

    /** One SKU in the admin's stock view, which reads Redis. */
    private record HotStock(long total, long available, long reserved, long sold) {

        static HotStock of(FlashsaleApi api, String saleId) {
            ApiAnswer view = api.send(api.stockView(saleId));
            assertThat(view.status()).as("the stock view: %s", view.describe()).isEqualTo(200);
            for (JsonNode item : view.json().path("items")) {
                if (SKU.equals(item.path("skuId").asString(""))) {
                    return new HotStock(item.path("total").asLong(-1), item.path("available").asLong(-1),
                            item.path("reserved").asLong(-1), item.path("sold").asLong(-1));
                }
            }
            throw new AssertionError("the stock view does not list " + SKU + ": " + view.describe());
        }
    }
}
