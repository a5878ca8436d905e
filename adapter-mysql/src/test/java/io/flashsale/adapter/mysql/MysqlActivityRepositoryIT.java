package io.flashsale.adapter.mysql;

import io.flashsale.application.sale.model.ActivityAlreadyExistsException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.sql.DataSource;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The MySQL activity repository against the real server. The JVM and the database session run in two
 * different, non-UTC zones on purpose: stored times must still be UTC and round-trip exactly.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
class MysqlActivityRepositoryIT {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_mysql");
    private static final String JVM_ZONE = "America/St_Johns";
    private static final String SESSION_ZONE = "+05:45";
    private static final String REFUSED_SKU = "refused-by-trigger";
    private static final TimeZone ORIGINAL_ZONE = TimeZone.getDefault();

    @Autowired
    MysqlActivityRepository repository;

    @Autowired
    DataSource dataSource;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TimeZone.setDefault(TimeZone.getTimeZone(JVM_ZONE));
        // An empty database (freshDatabase), so starting the context proves that Flyway migrates from nothing.
        TestServices.mariadb().springDatasource(DATABASE).registerIn(registry);
        registry.add("spring.datasource.hikari.connection-init-sql", () -> "SET time_zone = '" + SESSION_ZONE + "'");
    }

    @BeforeAll
    static void installFailingTrigger(@Autowired DataSource dataSource) {
        // Makes the item insert fail after the activity row went in, to show both share one transaction.
        new JdbcTemplate(dataSource).execute("""
                CREATE TRIGGER refuse_marked_item BEFORE INSERT ON activity_item FOR EACH ROW
                BEGIN
                    IF NEW.sku_id = '%s' THEN
                        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'item refused by test trigger';
                    END IF;
                END""".formatted(REFUSED_SKU));
    }

    @AfterAll
    static void restoreZone() {
        TimeZone.setDefault(ORIGINAL_ZONE);
    }

    @Test
    void givenAnEmptyDatabase_whenTheContextStarts_thenFlywayCreatedEveryTableAsInnoDbUtf8mb4() throws IOException {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);

        List<Map<String, Object>> history = jdbc.queryForList(
                "SELECT version, success FROM flyway_schema_history WHERE version IS NOT NULL ORDER BY installed_rank");
        List<Map<String, Object>> tables = jdbc.queryForList("""
                SELECT table_name AS name, engine, table_collation AS collation FROM information_schema.tables
                WHERE table_schema = DATABASE() AND table_name <> 'flyway_schema_history' ORDER BY table_name""");

        assertThat(history).extracting(row -> row.get("version")).containsExactlyElementsOf(migrationVersions());
        assertThat(history).allSatisfy(row -> assertThat(row.get("success")).isIn(true, 1, (byte) 1));
        assertThat(tables).extracting(row -> row.get("name")).containsExactly("activity", "activity_item",
                "activity_load", "blocklist_change", "blocklist_entry", "buyer_purchase", "job_lock",
                "payment_conflicts", "purchase_order", "purchase_order_line",
                "reconciliation_report", "reservation_alias", "stock_adjustment", "stock_adjustment_proposal",
                "stock_flow", "stock_transfer");
        assertThat(tables).allSatisfy(row -> {
            assertThat(row.get("engine")).isEqualTo("InnoDB");
            assertThat((String) row.get("collation")).startsWith("utf8mb4_");
        });
    }

    @Test
    void givenSeveralItems_whenAddedAndFound_thenEveryFieldComesBackInTheOrderCreated() {
        ActivityId id = uniqueId();
        Activity activity = new Activity(id, "Winter sale",
                Instant.parse("2026-12-01T10:00:00.123Z"), Instant.parse("2026-12-01T12:30:45.999Z"),
                new PurchaseLimit(5), Duration.ofSeconds(900), List.of(
                        new ActivityItem(new SkuId("zeta-9"), 7, null, 1),
                        new ActivityItem(new SkuId("alpha_1"), ActivityItem.MAX_STOCK, 3, ActivityItem.MAX_SEGMENTS),
                        new ActivityItem(new SkuId("Mid"), 0, PurchaseLimit.MAX, 4),
                        new ActivityItem(new SkuId("b"), 100, 1, 2)));

        repository.add(activity);

        Activity found = repository.findById(id).orElseThrow();
        assertThat(found).isEqualTo(activity);
        assertThat(found.items()).extracting(item -> item.skuId().value())
                .containsExactly("zeta-9", "alpha_1", "Mid", "b");
        assertThat(found.items().get(0).perUserLimit()).isNull();
        assertThat(found.startsAt()).isEqualTo(Instant.parse("2026-12-01T10:00:00.123Z"));
    }

    @Test
    void givenNonUtcJvmAndSession_whenAdded_thenTheTableHoldsUtcWallClockTimes() {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        assertThat(TimeZone.getDefault().getID()).isEqualTo(JVM_ZONE);
        assertThat(jdbc.queryForObject("SELECT @@session.time_zone", String.class)).isEqualTo(SESSION_ZONE);
        ActivityId id = uniqueId();
        Instant before = Instant.now();

        repository.add(activity(id, "Zone check", Instant.parse("2026-07-01T23:59:59.001Z"),
                Instant.parse("2026-07-02T00:00:00.000Z")));

        Map<String, Object> stored = jdbc.queryForMap("""
                SELECT CAST(starts_at AS CHAR) AS starts_at, CAST(ends_at AS CHAR) AS ends_at,
                       CAST(created_at AS CHAR) AS created_at
                FROM activity WHERE id = ?""", id.value());
        assertThat(stored.get("starts_at")).isEqualTo("2026-07-01 23:59:59.001");
        assertThat(stored.get("ends_at")).isEqualTo("2026-07-02 00:00:00.000");
        Instant createdAt = LocalDateTime.parse(((String) stored.get("created_at")).replace(' ', 'T'))
                .toInstant(ZoneOffset.UTC);
        assertThat(createdAt).isCloseTo(before, within(1, ChronoUnit.MINUTES));
        assertThat(repository.findById(id).orElseThrow().startsAt()).isEqualTo(Instant.parse("2026-07-01T23:59:59.001Z"));
    }

    @Test
    void givenTimesFinerThanAMillisecond_whenAddedAndFound_thenTheyAreTruncatedNotRounded() {
        ActivityId id = uniqueId();

        repository.add(activity(id, "Precise", Instant.parse("2026-12-01T10:00:00.123999999Z"),
                Instant.parse("2026-12-01T10:00:01.999999Z")));

        Activity found = repository.findById(id).orElseThrow();
        assertThat(found.startsAt()).isEqualTo(Instant.parse("2026-12-01T10:00:00.123Z"));
        assertThat(found.endsAt()).isEqualTo(Instant.parse("2026-12-01T10:00:01.999Z"));
    }

    @Test
    void givenAWindowInsideOneMillisecond_whenAdded_thenItIsRefusedAndNothingIsStored() {
        ActivityId id = uniqueId();
        Activity tooShort = activity(id, "Blink", Instant.parse("2026-12-01T10:00:00.000100Z"),
                Instant.parse("2026-12-01T10:00:00.000900Z"));

        assertThatThrownBy(() -> repository.add(tooShort))
                .isInstanceOfSatisfying(InvalidValueException.class, e -> assertThat(e.field()).isEqualTo("endsAt"));
        assertThat(repository.findById(id)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0999-12-31T23:59:59.999Z", "+10000-01-01T00:00:00Z"})
    void givenATimeOutsideTheDatetimeRange_whenAdded_thenItIsRefusedAndNothingIsStored(String outside) {
        ActivityId id = uniqueId();
        Instant instant = Instant.parse(outside);
        Activity early = activity(id, "Out of range", instant.minus(Duration.ofHours(1)), instant);

        assertThatThrownBy(() -> repository.add(early)).isInstanceOf(InvalidValueException.class);
        assertThat(repository.findById(id)).isEmpty();
    }

    @Test
    void givenTheEdgesOfTheDatetimeRange_whenAddedAndFound_thenTheyRoundTrip() {
        ActivityId id = uniqueId();
        Activity edges = activity(id, "Edges", Instant.parse("1000-01-01T00:00:00Z"),
                Instant.parse("9999-12-31T23:59:59.999Z"));

        repository.add(edges);

        assertThat(repository.findById(id)).contains(edges);
    }

    @Test
    void givenAPaymentTimeoutWithAFractionOfASecond_whenAdded_thenItIsRefusedAndNothingIsStored() {
        ActivityId id = uniqueId();
        Activity fractional = new Activity(id, "Fraction", Instant.parse("2026-12-01T10:00:00Z"),
                Instant.parse("2026-12-01T11:00:00Z"), PurchaseLimit.ONE, Duration.ofMillis(1500),
                List.of(ActivityItem.of("sku-1", 10)));

        assertThatThrownBy(() -> repository.add(fractional))
                .isInstanceOfSatisfying(InvalidValueException.class,
                        e -> assertThat(e.field()).isEqualTo("paymentTimeoutSeconds"));
        assertThat(repository.findById(id)).isEmpty();
    }

    @Test
    void givenAnUnknownId_whenFound_thenItIsEmpty() {
        assertThat(repository.findById(uniqueId())).isEmpty();
    }

    @Test
    void givenAnExistingId_whenAddedAgain_thenItIsRefusedAndTheFirstStaysIntact() {
        ActivityId id = uniqueId();
        Activity first = activity(id, "First", Instant.parse("2026-12-01T10:00:00Z"), Instant.parse("2026-12-01T11:00:00Z"));
        Activity second = new Activity(id, "Second", Instant.parse("2027-01-01T10:00:00Z"),
                Instant.parse("2027-01-01T11:00:00Z"), new PurchaseLimit(2), Duration.ofSeconds(60),
                List.of(ActivityItem.of("other-sku", 1), ActivityItem.of("sku-1", 999)));
        repository.add(first);

        assertThatThrownBy(() -> repository.add(second))
                .isInstanceOfSatisfying(ActivityAlreadyExistsException.class,
                        e -> assertThat(e.activityId()).isEqualTo(id));
        assertThat(repository.findById(id)).contains(first);
    }

    @Test
    void givenTwoThreadsAddingTheSameId_whenTheyRace_thenExactlyOneWinsAndItsActivityIsStored() throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(2)) {
            for (int round = 0; round < 25; round++) {
                ActivityId id = uniqueId();
                Activity left = activity(id, "Left " + round, Instant.parse("2026-12-01T10:00:00Z"),
                        Instant.parse("2026-12-01T11:00:00Z"));
                Activity right = activity(id, "Right " + round, Instant.parse("2026-12-02T10:00:00Z"),
                        Instant.parse("2026-12-02T11:00:00Z"));
                CountDownLatch start = new CountDownLatch(1);

                Future<Boolean> leftWon = pool.submit(addWhenStarted(left, start));
                Future<Boolean> rightWon = pool.submit(addWhenStarted(right, start));
                start.countDown();

                assertThat(List.of(leftWon.get(), rightWon.get())).as("round %d", round).containsOnlyOnce(true);
                Activity winner = leftWon.get() ? left : right;
                assertThat(repository.findById(id)).as("round %d", round).contains(winner);
            }
        }
    }

    @Test
    void givenIdsThatDifferOnlyInCase_whenBothAdded_thenTheyAreTwoActivities() {
        String base = "case-" + UUID.randomUUID().toString().substring(0, 8);
        Activity lower = activity(new ActivityId(base + "-abc"), "Lower", Instant.parse("2026-12-01T10:00:00Z"),
                Instant.parse("2026-12-01T11:00:00Z"));
        Activity upper = activity(new ActivityId(base + "-ABC"), "Upper", Instant.parse("2026-12-01T10:00:00Z"),
                Instant.parse("2026-12-01T11:00:00Z"));

        repository.add(lower);
        repository.add(upper);

        assertThat(repository.findById(lower.id())).contains(lower);
        assertThat(repository.findById(upper.id())).contains(upper);
    }

    @Test
    void givenAnItemTheDatabaseRefuses_whenAdded_thenTheActivityRowIsRolledBackToo() {
        ActivityId id = uniqueId();
        Activity activity = new Activity(id, "Half written", Instant.parse("2026-12-01T10:00:00Z"),
                Instant.parse("2026-12-01T11:00:00Z"), PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT,
                List.of(ActivityItem.of("fine", 1), ActivityItem.of(REFUSED_SKU, 1)));

        assertThatThrownBy(() -> repository.add(activity)).isInstanceOf(DataAccessException.class);

        assertThat(repository.findById(id)).isEmpty();
        assertThat(new JdbcTemplate(dataSource).queryForObject(
                "SELECT COUNT(*) FROM activity WHERE id = ?", Integer.class, id.value())).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"x' OR '1'='1", "x'; DROP TABLE activity; --", "x\" OR 1=1 #", "x/**/UNION/**/SELECT"})
    void givenAnIdWithSqlInIt_whenBuilt_thenTheDomainRefusesItSoItCanNeverReachTheDatabase(String hostileId) {
        assertThatThrownBy(() -> new ActivityId(hostileId)).isInstanceOf(InvalidValueException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "O'Brien's \"sale\" 双十一",
            "'); DROP TABLE activity_item; --",
            "Emoji 🎉 and accents: café, Ünïcödé, ½ \\ backslash",
            "${name} #{id} %s %% _ wildcards"})
    void givenANameWithQuotesUnicodeOrSql_whenAddedAndFound_thenItComesBackUnchanged(String name) {
        ActivityId id = uniqueId();
        Activity activity = activity(id, name, Instant.parse("2026-12-01T10:00:00Z"), Instant.parse("2026-12-01T11:00:00Z"));

        repository.add(activity);

        assertThat(repository.findById(id)).contains(activity);
        assertThat(new JdbcTemplate(dataSource).queryForObject(
                "SELECT COUNT(*) FROM activity_item", Integer.class)).isPositive();
    }

    @Test
    void givenASaleOfThreeSlices_whenAddedAndRead_thenEveryReadFindsThreeSlices() {
        ActivityId id = uniqueId();
        Instant startsAt = Instant.parse("2041-03-01T10:00:00Z");
        Activity plain = activity(id, "Sliced", startsAt, startsAt.plus(Duration.ofHours(1)));
        Activity sliced = new Activity(id, plain.name(), plain.startsAt(), plain.endsAt(), plain.perUserLimit(),
                plain.paymentTimeout(), plain.items(), false, new SaleSlices(3));

        repository.add(sliced);

        assertThat(repository.findById(id)).contains(sliced);
        assertThat(repository.findUnarchivedOverlapping(startsAt, startsAt))
                .filteredOn(found -> found.id().equals(id)).containsExactly(sliced);
        assertThat(new JdbcTemplate(dataSource).queryForObject(
                "SELECT slices FROM activity WHERE id = ?", Integer.class, id.value())).isEqualTo(3);
    }

    @Test
    void givenASaleMadeWithTheConstructorFromBeforeSlices_whenAddedAndFound_thenItIsOneSlice() {
        ActivityId id = uniqueId();

        repository.add(activity(id, "Unsliced", Instant.parse("2026-12-01T10:00:00Z"),
                Instant.parse("2026-12-01T11:00:00Z")));

        assertThat(repository.findById(id).orElseThrow().slices()).isEqualTo(SaleSlices.ONE);
    }

    @Test
    void givenARowWrittenWithoutASliceCount_asEverySaleBeforeSlicesWas_whenFound_thenItIsOneSlice() {
        ActivityId id = uniqueId();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        jdbc.update("""
                INSERT INTO activity (id, name, starts_at, ends_at, per_user_limit, payment_timeout_seconds, created_at)
                VALUES (?, 'Old sale', '2026-12-01 10:00:00', '2026-12-01 11:00:00', 1, 900, UTC_TIMESTAMP(3))""",
                id.value());
        jdbc.update("INSERT INTO activity_item (activity_id, sku_id, item_index, stock, segments) VALUES (?, 'a', 0, 5, 1)",
                id.value());

        assertThat(repository.findById(id).orElseThrow().slices()).isEqualTo(SaleSlices.ONE);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 65})
    void givenASliceCountOutsideOneTo64_whenWrittenStraightToTheTable_thenTheTableRefusesIt(int slices) {
        ActivityId id = uniqueId();
        repository.add(activity(id, "Checked", Instant.parse("2026-12-01T10:00:00Z"),
                Instant.parse("2026-12-01T11:00:00Z")));

        assertThatThrownBy(() -> new JdbcTemplate(dataSource).update(
                "UPDATE activity SET slices = ? WHERE id = ?", slices, id.value()))
                .isInstanceOf(DataIntegrityViolationException.class);
        assertThat(repository.findById(id).orElseThrow().slices()).isEqualTo(SaleSlices.ONE);
    }

    /** The versions of the migrations shipped in db/migration, in the order Flyway applies them. */
    private static List<String> migrationVersions() throws IOException {
        Pattern versioned = Pattern.compile("V(\\d+)__.+\\.sql");
        return Arrays.stream(new PathMatchingResourcePatternResolver().getResources("classpath:db/migration/*.sql"))
                .map(Resource::getFilename)
                .map(versioned::matcher)
                .filter(Matcher::matches)
                .map(matcher -> Integer.parseInt(matcher.group(1)))
                .sorted()
                .map(String::valueOf)
                .toList();
    }

    private Callable<Boolean> addWhenStarted(Activity activity, CountDownLatch start) {
        return () -> {
            start.await();
            try {
                repository.add(activity);
                return true;
            } catch (ActivityAlreadyExistsException e) {
                return false;
            }
        };
    }

    private static Activity activity(ActivityId id, String name, Instant startsAt, Instant endsAt) {
        List<ActivityItem> items = new ArrayList<>();
        items.add(ActivityItem.of("sku-1", 10));
        items.add(new ActivityItem(new SkuId("sku-2"), 20, 2, 3));
        return new Activity(id, name, startsAt, endsAt, PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT, items);
    }

    private static ActivityId uniqueId() {
        return new ActivityId("it-" + UUID.randomUUID());
    }
}
