package io.flashsale.acceptance;

import io.cucumber.spring.CucumberContextConfiguration;
import io.flashsale.acceptance.steps.SaleWorld;
import io.flashsale.bootstrap.FlashsaleApplication;
import io.flashsale.testsupport.KafkaEndpoint;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestBuyerTokens;
import io.flashsale.testsupport.TestServices;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The whole service on a random port, on real Redis, Kafka and MariaDB; the steps reach it over HTTP, and look
 * behind it only through {@link InspectionConfiguration}'s read-outs of the database, the topic and the hot store.
 */
@CucumberContextConfiguration
@SpringBootTest(classes = FlashsaleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import({SaleWorld.class, InspectionConfiguration.class})
public class CucumberSpringConfiguration {

    public static final String ADMIN_TOKEN = "acceptance-admin-token-0123456789abcdef";
    /** The named operators of the scenarios, each with a token of their own: a stock change needs two (ADR 84). */
    public static final Map<String, String> OPERATOR_TOKENS = Map.of(
            "Olivia", "acceptance-olivia-token-0123456789abcdef",
            "Peter", "acceptance-peter-token-0123456789abcdefg");
    /** What the payment provider signs its notifications with. */
    public static final String NOTIFICATION_SECRET = "acceptance-notification-secret";
    /** One per test JVM: overlapping runs on one server never share it. */
    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_acceptance");

    // Names of this run only: the broker and Redis may be shared with other runs and other tests.
    private static final String RUN = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    public static final String TOPIC = "flashsale.acceptance." + RUN + ".reservations";
    public static final String CONSUMER_GROUP = "flashsale-acceptance-" + RUN;
    private static final String OUTBOX_REGISTRY = "fs:outbox:acceptance:" + RUN;

    /**
     * How long before its start a sale is loaded by the warm-up schedule: long enough that a buyer's request after the
     * loading still comes before the opening on a loaded machine, short enough for a scenario to watch it.
     */
    public static final Duration WARM_UP_LEAD = Duration.ofSeconds(30);

    /** How long a move between the stores may be on its way before reconciliation counts it as lost. */
    public static final Duration RECONCILIATION_GRACE = Duration.ofSeconds(4);

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        RedisEndpoint redis = TestServices.redis();
        KafkaEndpoint kafka = TestServices.kafka();
        registry.add("spring.data.redis.host", redis::host);
        registry.add("spring.data.redis.port", redis::port);
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
        registry.add("spring.kafka.bootstrap-servers", kafka::bootstrapServers);
        registry.add("flashsale.kafka.topic", () -> TOPIC);
        registry.add("flashsale.kafka.consumer.group-id", () -> CONSUMER_GROUP);
        registry.add("flashsale.redis.outbox-registry", () -> OUTBOX_REGISTRY);
        registry.add("flashsale.admin.token", () -> ADMIN_TOKEN);
        int operator = 0;
        for (Map.Entry<String, String> named : OPERATOR_TOKENS.entrySet()) {
            registry.add("flashsale.admin.operators[" + operator + "].name", named::getKey);
            registry.add("flashsale.admin.operators[" + operator++ + "].token", named::getValue);
        }
        // Buyers sign in with tokens of the tests' issuer (buyer-auth=jwt, the default).
        registry.add(TestBuyerTokens.PUBLIC_KEY_LOCATION_PROPERTY, () -> TestBuyerTokens.CLASSPATH_PUBLIC_KEY_LOCATION);
        // Payments come from the payment provider only (flashsale.payment.buyer-confirms stays off, as by default).
        registry.add("flashsale.payment.notification-secret", () -> NOTIFICATION_SECRET);
        // Scenarios of one eager buyer (twenty identical requests at once) speak of the store, not of the per-buyer
        // rate limit; rate-limit.feature runs instances with the limit it names.
        registry.add("flashsale.rate-limit.buyer.burst", () -> "100");
        registry.add("flashsale.rate-limit.buyer.per-second", () -> "100");
        // The scenarios move the service's clock to a sale's opening and end: the window must follow that clock,
        // not Redis TIME (RedisWindowClockIT covers the one-clock rule).
        registry.add("flashsale.sale-window.clock", () -> "service");
        // ... and so must the payment deadlines (DatabaseDeadlineClockIT covers the database's clock).
        registry.add("flashsale.payment.deadline-clock", () -> "service");
        // The lifecycle's background jobs at a pace a scenario can wait for: payment time limits of a second or two.
        registry.add("flashsale.lifecycle.expiry-interval", () -> "200ms");
        registry.add("flashsale.lifecycle.restore-sweep-interval", () -> "500ms");
        registry.add("flashsale.warm-up.lead", () -> WARM_UP_LEAD.toMillis() + "ms");
        registry.add("flashsale.warm-up.interval", () -> "200ms");
        // Archives only when a scenario asks: a scheduled pass would take ended sales away from other scenarios.
        registry.add("flashsale.archive.interval", () -> "1h");
        // Reconciliation only when a scenario asks, so its report is the one the scenario reads; and a short grace,
        // so a lost event or confirmation counts as lost within seconds rather than a minute.
        registry.add("flashsale.reconciliation.schedule-enabled", () -> "false");
        registry.add("flashsale.reconciliation.grace", () -> RECONCILIATION_GRACE.toMillis() + "ms");
    }
}
