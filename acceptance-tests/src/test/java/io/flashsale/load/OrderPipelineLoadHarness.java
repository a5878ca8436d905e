package io.flashsale.load;

import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.FlashsaleApi;
import io.flashsale.acceptance.api.SaleSpec;
import io.flashsale.acceptance.inspect.HotStore;
import io.flashsale.acceptance.inspect.ShopDatabase;
import io.flashsale.testsupport.ServiceProcess;
import io.flashsale.acceptance.service.ServiceSettings;
import io.flashsale.testsupport.MariaDbEndpoint;
import io.flashsale.testsupport.TestServices;
import org.HdrHistogram.Histogram;
import org.apache.kafka.common.utils.AppInfoParser;

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
import java.util.concurrent.TimeUnit;

import static io.flashsale.load.PipelineFigures.format;
import static io.flashsale.load.PipelineFigures.millis;

/**
 * The order pipeline's benchmark (not a test: it asserts nothing and no build runs it). Starts the runnable jar as
 * ServiceCrashIT does, on this machine's Redis and MariaDB and a Kafka broker in this JVM, offers a sustained,
 * fixed rate of reservations from new buyers against a stock that never runs out, waits for the pipeline to drain,
 * and prints orders per second into MariaDB and the reservation-to-order latency, with the machine they ran on.
 *
 * <p>Run from the repository root (the profile builds the runnable jar through the reactor, installing nothing):
 * <pre>
 * ./mvnw -pl acceptance-tests -am verify -DskipTests -Pload-harness -Dflashsale.load.rate=500 -Dflashsale.load.seconds=30
 * </pre>
 * Settings: {@link LoadSettings}; {@code -Dflashsale.load.scenario=backlog} runs {@link BacklogScenario} instead.
 * The service's log is {@code acceptance-tests/target/load-harness/service.log}.
 */
public final class OrderPipelineLoadHarness {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_load_harness");
    static final String ADMIN_TOKEN = "load-harness-admin-token-0123456789abcdef";
    private static final String SKU = "load-item";
    private static final List<String> JVM_OPTIONS = List.of("-Xms512m", "-Xmx1g");
    private static final Path OUTPUT = Path.of(System.getProperty("user.dir"), "target", "load-harness");
    private static final Duration START_PATIENCE = Duration.ofSeconds(300);
    private static final int PRIMING_ORDERS = 20;

    private OrderPipelineLoadHarness() {
    }

    public static void main(String[] args) {
        LoadSettings settings = LoadSettings.fromSystemProperties();
        Path jar = ServiceProcess.runnableJar();
        if (!Files.isRegularFile(jar)) {
            System.err.println("no runnable jar at " + jar + ": run ./mvnw -pl acceptance-tests -am verify -DskipTests -Pload-harness");
            System.exit(2);
        }
        int status = 0;
        try {
            run(settings, jar).forEach(System.out::println);
        } catch (RuntimeException failed) {
            failed.printStackTrace();
            status = 1;
        }
        // The in-JVM broker's threads would keep the JVM alive; its shutdown hook still runs.
        System.exit(status);
    }

    private static List<String> run(LoadSettings settings, Path jar) {
        String run = "load-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        MariaDbEndpoint mariadb = TestServices.mariadb();
        mariadb.recreateDatabase(DATABASE);
        int port = ServiceProcess.freePort();
        Map<String, String> properties = new LinkedHashMap<>(ServiceSettings.onTestServices(run, DATABASE, port,
                ADMIN_TOKEN));
        properties.putAll(settings.serviceProperties());
        Path log = OUTPUT.resolve("service.log");
        ShopDatabase books = new ShopDatabase(mariadb.jdbcUrl(DATABASE), mariadb.username(), mariadb.password());
        FlashsaleApi api = new FlashsaleApi(port, ADMIN_TOKEN);
        List<String> jvmOptions = jvmOptions(settings);
        if (LoadSettings.BACKLOG.equals(settings.scenario())) {
            return backlog(settings, jar, run, properties, jvmOptions, api, mariadb);
        }

        System.out.println("[load] starting the service, log in " + log);
        try (ServiceProcess service = startReady(jar, jvmOptions, properties, log);
             HotStore hotStore = new HotStore(TestServices.redis().uri())) {
            primePipeline(api, books, run);
            String warmService = warmService(settings, api, books, run);
            String saleId = openSale(api, run, settings.stock());
            System.out.printf("[load] offering %d reservations/s for %d s to sale %s%n", settings.rate(),
                    settings.seconds(), saleId);
            FixedRateLoad load = new FixedRateLoad(api, saleId, SKU, run + "-buyer-");
            Instant loadStart = Instant.now();
            load.run(settings.rate(), settings.seconds(), settings.maxInFlight());
            Instant loadEnd = loadStart.plusSeconds(settings.seconds());
            long placed = awaitOrders(books, saleId, load.accepted(), Duration.ofSeconds(settings.drainSeconds()));

            var figures = new PipelineFigures(books.placements(saleId),
                    epochMicros(loadStart.plusSeconds(settings.warmupSeconds())), epochMicros(loadEnd));
            MachineFacts machine = MachineFacts.describe(hotStore.serverVersion(), books.serverVersion(),
                    AppInfoParser.getVersion() + " (one KRaft broker in the harness JVM)");
            List<String> lines = report(settings, load, placed, figures, machine, properties, jvmOptions);
            lines.add(1, warmService);
            lines.addAll(HarnessReport.pipelineCounters(ServiceScrape.read(service.managementPort(), ADMIN_TOKEN)));
            // A clean stop, so a JFR recording (flashsale.load.jfr) is written.
            service.stop(Duration.ofSeconds(60));
            return lines;
        }
    }

    private static List<String> backlog(LoadSettings settings, Path jar, String run, Map<String, String> properties,
                                        List<String> jvmOptions, FlashsaleApi api, MariaDbEndpoint mariadb) {
        BacklogBooks books = new BacklogBooks(mariadb.jdbcUrl(DATABASE), mariadb.username(), mariadb.password());
        try (HotStore hotStore = new HotStore(TestServices.redis().uri())) {
            var scenario = new BacklogScenario(settings, api, books, hotStore, SKU);
            List<String> lines = new ArrayList<>(scenario.run((extra, logName) -> {
                Map<String, String> these = new LinkedHashMap<>(properties);
                these.putAll(extra);
                Path log = OUTPUT.resolve(logName);
                System.out.println("[load] starting a service, log in " + log);
                return startReady(jar, jvmOptions, these, log);
            }, (stock, paymentTimeout) -> openSale(api, run, stock, paymentTimeout), run + "-buyer-"));
            lines.add("--- machine ---");
            lines.addAll(MachineFacts.describe(hotStore.serverVersion(), new ShopDatabase(mariadb.jdbcUrl(DATABASE),
                            mariadb.username(), mariadb.password()).serverVersion(),
                    AppInfoParser.getVersion() + " (one KRaft broker in the harness JVM)").lines());
            lines.add("--- service ---");
            lines.add(serviceLine(properties, jvmOptions));
            return lines;
        }
    }

    /** A service that did not get ready is stopped, not left running behind the harness. */
    private static ServiceProcess startReady(Path jar, List<String> jvmOptions, Map<String, String> properties,
                                             Path log) {
        ServiceProcess service = ServiceProcess.start(jar, jvmOptions, properties, log);
        try {
            return service.awaitReady(START_PATIENCE);
        } catch (RuntimeException notReady) {
            service.close();
            throw notReady;
        }
    }

    /**
     * With {@code flashsale.load.jfr}, the service records a profile into target/load-harness/service-(start).jfr,
     * written when it stops.
     */
    private static List<String> jvmOptions(LoadSettings settings) {
        List<String> options = new ArrayList<>(JVM_OPTIONS);
        if (settings.jfr()) {
            options.add("-XX:StartFlightRecording=settings=profile,dumponexit=true,filename="
                    + OUTPUT.resolve("service-" + System.currentTimeMillis() + ".jfr"));
        }
        return options;
    }

    /**
     * A few orders through the whole pipeline before the clock starts, in a sale of their own: the consumers have
     * joined their group and own their partitions, so the warm-up window is about the JIT, not the start-up.
     */
    private static void primePipeline(FlashsaleApi api, ShopDatabase books, String run) {
        String primeSale = openSale(api, run + "-prime", PRIMING_ORDERS);
        for (int i = 0; i < PRIMING_ORDERS; i++) {
            requireStatus(api.send(api.reserve(primeSale, run + "-primer-" + i,
                    Map.of("items", List.of(Map.of("skuId", SKU, "quantity", 1))))), 202);
        }
        if (awaitOrders(books, primeSale, PRIMING_ORDERS, START_PATIENCE) < PRIMING_ORDERS) {
            throw new IllegalStateException("the pipeline placed no orders within " + START_PATIENCE
                    + "; see the service's log");
        }
    }

    /**
     * With {@code flashsale.load.warm-service-seconds}, the offered rate for that long to a sale of its own, then a
     * wait until every reservation of it is an order: the measured window then sees a service whose JIT has compiled
     * the whole path, as an instance that has been taking orders before a sale would be, instead of one started for
     * the run. Returns the report's line about it.
     */
    private static String warmService(LoadSettings settings, FlashsaleApi api, ShopDatabase books, String run) {
        if (settings.warmServiceSeconds() == 0) {
            return "service: cold (started for this run, 20 orders primed; no warm-service phase)";
        }
        long requests = (long) settings.rate() * settings.warmServiceSeconds();
        String warmSale = openSale(api, run + "-warm", requests + requests / 10 + 100);
        System.out.printf("[load] warming the service: %d reservations/s for %d s to sale %s%n", settings.rate(),
                settings.warmServiceSeconds(), warmSale);
        FixedRateLoad warm = new FixedRateLoad(api, warmSale, SKU, run + "-warm-buyer-");
        long started = System.nanoTime();
        warm.run(settings.rate(), settings.warmServiceSeconds(), settings.maxInFlight());
        long placed = awaitOrders(books, warmSale, warm.accepted(), Duration.ofSeconds(settings.drainSeconds()));
        if (placed < warm.accepted()) {
            throw new IllegalStateException("the warm-service phase left " + (warm.accepted() - placed)
                    + " reservations without an order after " + settings.drainSeconds() + " s");
        }
        return format("service: warmed first by %d reservations/s for %d s to a sale of its own (%d accepted, all"
                        + " orders after %.1f s), then the measured run", settings.rate(), settings.warmServiceSeconds(),
                warm.accepted(), (System.nanoTime() - started) / 1e9);
    }

    private static String openSale(FlashsaleApi api, String run, long stock) {
        return openSale(api, run, stock, 0);
    }

    /** @param paymentTimeoutSeconds 0: the service's default */
    private static String openSale(FlashsaleApi api, String run, long stock, int paymentTimeoutSeconds) {
        Instant startsAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofMinutes(1));
        var sale = new SaleSpec(run, "Load harness " + run, startsAt, startsAt.plus(Duration.ofHours(2)), 1,
                List.of(SaleSpec.Product.of(SKU, stock)));
        if (paymentTimeoutSeconds > 0) {
            sale = sale.withPaymentTimeout(paymentTimeoutSeconds);
        }
        requireStatus(api.send(api.createSale(sale.toBody())), 201);
        requireStatus(api.send(api.warmUp(sale.id())), 200);
        return sale.id();
    }

    /** Waits until every accepted reservation is an order, or the patience runs out; returns the orders placed. */
    private static long awaitOrders(ShopDatabase books, String saleId, long accepted, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        long placed = books.orderCount(saleId);
        while (placed < accepted && System.nanoTime() < deadline) {
            sleep(Duration.ofMillis(500));
            placed = books.orderCount(saleId);
        }
        return placed;
    }

    private static List<String> report(LoadSettings settings, FixedRateLoad load, long placed, PipelineFigures figures,
                                       MachineFacts machine, Map<String, String> properties,
                                       List<String> jvmOptions) {
        Histogram answers = load.answerTimes();
        List<String> lines = new ArrayList<>();
        lines.add("=== Flashsale order pipeline: sustained load ===");
        lines.add(format("offered: %d reservations/s for %d s (%d requests), one unit each from a new buyer; "
                + "steady window after %d s of warm-up", settings.rate(), settings.seconds(), settings.requests(),
                settings.warmupSeconds()));
        lines.add(format("client: %d accepted (202), %d skipped (over %d in flight), other answers %s",
                load.accepted(), load.skipped(), settings.maxInFlight(), load.otherOutcomes()));
        if (load.skipped() > 0) {
            lines.add("WARNING: the service could not take the offered rate (requests were skipped): the machine was"
                    + " saturated, and the figures below describe an overloaded service, not the pipeline's pace");
        }
        lines.add(format("reservation answer time (from the request's due time): p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                millis(answers.getValueAtPercentile(50)), millis(answers.getValueAtPercentile(99)),
                millis(answers.getMaxValue())));
        lines.add(format("orders placed / reservations accepted: %d / %d%s", placed, load.accepted(),
                placed < load.accepted() ? " (NOT DRAINED within " + settings.drainSeconds() + " s)" : ""));
        lines.addAll(figures.lines());
        lines.add("--- machine ---");
        lines.addAll(machine.lines());
        lines.add("--- service ---");
        lines.add(serviceLine(properties, jvmOptions));
        return lines;
    }

    private static String serviceLine(Map<String, String> properties, List<String> jvmOptions) {
        return "one process: java " + String.join(" ", jvmOptions) + " -jar flashsale.jar; Kafka topic "
                + properties.get("flashsale.kafka.topic") + "; sizing as configured (application.yaml)"
                + (LoadSettings.pairs(System.getProperty("flashsale.load.service-properties", "")).isEmpty() ? ""
                : " with " + System.getProperty("flashsale.load.service-properties"))
                + "; one hot SKU, so every order updates the same stock row; "
                + "client, service, Redis, MariaDB and broker share the machine";
    }

    private static void requireStatus(ApiAnswer answer, int status) {
        if (answer.status() != status) {
            throw new IllegalStateException("expected " + status + ": " + answer.describe());
        }
    }

    private static long epochMicros(Instant instant) {
        return TimeUnit.SECONDS.toMicros(instant.getEpochSecond()) + instant.getNano() / 1_000;
    }

    static void sleep(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
