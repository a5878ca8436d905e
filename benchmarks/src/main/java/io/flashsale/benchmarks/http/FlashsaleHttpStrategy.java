package io.flashsale.benchmarks.http;

import io.flashsale.benchmarks.InventoryStrategy;
import io.flashsale.benchmarks.SaleItem;
import io.flashsale.benchmarks.Take;
import io.flashsale.benchmarks.mysql.MysqlServer;
import io.flashsale.benchmarks.redis.RedisServer;
import io.flashsale.benchmarks.redis.SaleKeys;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * 8. The whole service as its users run it: the packaged jar (its own database, its own in-process Kafka broker,
 * this machine's Redis), driven through its HTTP API. Each SKU is a sale created and warmed up by the admin API;
 * each attempt is {@code POST /api/v1/activities/{id}/reservations}. Behind the answer the relay, Kafka and the
 * order consumer write every accepted reservation to MySQL, on the same cores.
 */
public final class FlashsaleHttpStrategy implements InventoryStrategy {

    private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([A-Z_]+)\"");
    private static final Pattern AVAILABLE = Pattern.compile("\"available\"\\s*:\\s*(-?\\d+)");

    private final MysqlServer mysql;
    private final RedisServer redis;
    private final String run = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    private final String database = "flashsale_bench_svc_" + run;
    private final String adminToken = "bench-" + run + "-" + java.util.UUID.randomUUID();
    private final Path workDirectory;
    /** Buyers sign in once each; the benchmark lasts minutes, its tokens a day. */
    private final BuyerTokenSigner buyerTokens = new BuyerTokenSigner(Duration.ofDays(1));
    private final HttpClient http;
    private final URI base;
    private final ServiceProcess service;
    private final Set<String> activities = ConcurrentHashMap.newKeySet();
    private final AtomicLong tokens = new AtomicLong();

    public FlashsaleHttpStrategy(Path jar, MysqlServer mysql, RedisServer redis) {
        this(jar, mysql, redis, List.of("-Xmx1g"));
    }

    /** @param jvmOptions of the service's JVM (a test may trade peak speed for a quicker start) */
    public FlashsaleHttpStrategy(Path jar, MysqlServer mysql, RedisServer redis, List<String> jvmOptions) {
        this.mysql = mysql;
        this.redis = redis;
        try {
            this.workDirectory = Files.createTempDirectory("flashsale-bench-");
        } catch (IOException e) {
            throw new IllegalStateException("no temporary directory", e);
        }
        int port = ServiceProcess.freePort();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("server.port", Integer.toString(port));
        int managementPort = ServiceProcess.freePort();
        properties.put("management.server.port", Integer.toString(managementPort));
        properties.put("spring.datasource.url", "jdbc:mysql://" + mysql.host() + ":" + mysql.port() + "/" + database
                + "?createDatabaseIfNotExist=true&useSSL=false&allowPublicKeyRetrieval=true");
        properties.put("spring.datasource.username", mysql.user());
        properties.put("spring.datasource.password", mysql.password());
        properties.put("spring.data.redis.host", redis.host());
        properties.put("spring.data.redis.port", Integer.toString(redis.port()));
        properties.put("flashsale.redis.outbox-registry", outboxRegistry());
        properties.put("flashsale.admin.token", adminToken);
        // Buyers sign in with tokens of this run's own issuer (buyer-auth=jwt, the default).
        properties.put("spring.security.oauth2.resourceserver.jwt.public-key-location",
                buyerTokens.writePublicKey(workDirectory.resolve("buyer-issuer.pem")));
        // The service's own broker, which demo mode allows; Redis and the database stay the configured ones.
        properties.put("flashsale.embedded.enabled", "true");
        properties.put("flashsale.kafka.embedded.enabled", "true");
        properties.put("flashsale.kafka.embedded.data-dir", workDirectory.resolve("kafka").toString());
        properties.put("flashsale.kafka.embedded.port", Integer.toString(ServiceProcess.freePort()));
        properties.put("logging.level.root", "WARN");
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        this.base = URI.create("http://127.0.0.1:" + port);
        this.service = ServiceProcess.start(jar, jvmOptions, properties, workDirectory.resolve("service.log"));
        try {
            service.awaitHealthy(http, URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/readiness"),
                    Duration.ofMinutes(2));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private String outboxRegistry() {
        return "bench:outbox:svc-" + run;
    }

    @Override
    public String name() {
        return "8 Flashsale HTTP (service jar)";
    }

    private static String activityOf(String sku) {
        return "bench-" + sku;
    }

    @Override
    public void stock(SaleItem item) {
        String activity = activityOf(item.sku());
        Instant now = Instant.now();
        String sale = """
                {"id": "%s", "name": "benchmark %s", "startsAt": "%s", "endsAt": "%s", "perUserLimit": %d,
                 "paymentTimeoutSeconds": 900, "items": [{"skuId": "%s", "stock": %d, "segments": 1}]}"""
                .formatted(activity, item.sku(), now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(6)),
                        item.perBuyerLimit(), item.sku(), item.stock());
        activities.add(activity);
        expect(201, admin("/api/v1/activities").POST(HttpRequest.BodyPublishers.ofString(sale))
                .header("Content-Type", "application/json"));
        expect(200, admin("/api/v1/activities/" + activity + "/warm-up").POST(HttpRequest.BodyPublishers.noBody()));
    }

    @Override
    public Take take(String sku, String buyer, int quantity) {
        String body = "{\"requestId\": \"" + run + "x" + tokens.incrementAndGet() + "\", \"items\": [{\"skuId\": \""
                + sku + "\", \"quantity\": " + quantity + "}]}";
        HttpResponse<String> answer = send(HttpRequest.newBuilder(
                        base.resolve("/api/v1/activities/" + activityOf(sku) + "/reservations"))
                .timeout(Duration.ofSeconds(30)).header("Authorization", buyerTokens.bearer(buyer))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        if (answer.statusCode() == 202) {
            return Take.TAKEN;
        }
        Matcher code = CODE.matcher(answer.body());
        return switch (code.find() ? code.group(1) : "") {
            case "SOLD_OUT", "INSUFFICIENT_STOCK" -> Take.SOLD_OUT;
            case "LIMIT_EXCEEDED" -> Take.LIMIT;
            default -> throw new IllegalStateException("unexpected answer " + answer.statusCode() + " " + answer.body());
        };
    }

    @Override
    public long unitsLeft(String sku) {
        HttpResponse<String> stock = expect(200, admin("/api/v1/activities/" + activityOf(sku) + "/stock").GET());
        Matcher available = AVAILABLE.matcher(stock.body());
        if (!available.find()) {
            throw new IllegalStateException("no available units in " + stock.body());
        }
        return Long.parseLong(available.group(1));
    }

    private HttpRequest.Builder admin(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + adminToken);
    }

    private HttpResponse<String> expect(int status, HttpRequest.Builder request) {
        HttpResponse<String> answer = send(request);
        if (answer.statusCode() != status) {
            throw new IllegalStateException("expected " + status + ", got " + answer.statusCode() + " " + answer.body());
        }
        return answer;
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("the service did not answer: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        service.close();
        http.close();
        SaleKeys.delete(redis, activities, outboxRegistry());
        try (Connection connection = DriverManager.getConnection(
                "jdbc:mysql://" + mysql.host() + ":" + mysql.port() + "/?useSSL=false&allowPublicKeyRetrieval=true",
                mysql.user(), mysql.password()); Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS `" + database + "`");
        } catch (SQLException e) {
            System.err.println("[bench] could not drop " + database + ": " + e.getMessage());
        }
        try (Stream<Path> files = Files.walk(workDirectory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("[bench] could not delete " + workDirectory + ": " + e.getMessage());
        }
    }
}
