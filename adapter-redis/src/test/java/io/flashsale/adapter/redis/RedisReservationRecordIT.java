package io.flashsale.adapter.redis;

import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reservation's record is one field of the records hash, written by the scripts exactly as {@link ReservationRecord}
 * writes it, and what one costs the hot store's memory while it waits for the sale's archive (ADR 70): reserved,
 * relayed (its broker position recorded) and confirmed, as the order pipeline leaves it.
 */
class RedisReservationRecordIT {

    /** Reservations measured; {@code -Dflashsale.record.reservations=100000} for the ADR's measurement. */
    private static final int RESERVATIONS = Integer.getInteger("flashsale.record.reservations", 2_000);
    /**
     * A settled reservation leaves no record (ADR 71): what the sale keeps of it is its request index entry (what keeps
     * a keyed retry exact) and its buyer's holding. Measured in ADR 71; the bound is the project's budget for a settled
     * reservation, holdings aside.
     */
    private static final double BYTES_PER_RESERVATION_BOUND = 128;

    private final RedisCommands<String, String> redis = SharedRedis.connection().sync();

    @Test
    @Timeout(60)
    void givenAReservationThroughItsLife_thenItIsOneFieldThatTheCodecReadsAsTheScriptsWroteIt() {
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.warmedUpSale("rec1", 1);
            String records = RedisKeys.reservations(sale.id());
            var request = new ReservationRequest(ReservationId.of(sale.id(), "tok1"), new BuyerId("ann"),
                    new RequestId("k1"), List.of(new ReservationLine(OutboxFixture.SKU, 1)),
                    Instant.now().truncatedTo(ChronoUnit.SECONDS).plusNanos(7));
            ReservationRecord expected = ReservationRecord.of(request.toReservation());
            fixture.stock.reserve(request);

            assertThat(fixture.redis.hgetall(records)).isEqualTo(Map.of(request.id().value(), expected.encode()));

            List<OutboxEntry> relayed = fixture.outbox.readNew(sale.id(), "relay", 10);
            fixture.outbox.acknowledge(sale.id(), relayed, List.of(new EventPosition(2, 41)));
            expected = new ReservationRecord(ReservationStatus.RESERVED, expected.buyer(), expected.requestId(),
                    expected.lines(), expected.reservedAt(), new EventPosition(2, 41), null, null);

            assertThat(fixture.redis.hgetall(records)).isEqualTo(Map.of(request.id().value(), expected.encode()));
            assertThat(fixture.stock.findReservation(request.id())).contains(expected.toReservation(request.id()));
            assertThat(fixture.stock.reserve(request)).as("a replay answers the record")
                    .isEqualTo(new ReservationOutcome.Replayed(expected.toReservation(request.id())));

            fixture.stock.confirm(request.id());
            assertThat(fixture.redis.hgetall(records)).as("an ordered reservation leaves its record (ADR 71)")
                    .isEmpty();
            assertThat(fixture.stock.reserve(request)).as("a replay: the application answers it with the order")
                    .isEqualTo(new ReservationOutcome.Settled(request.id()));
        }
    }

    /** The relay may record the position after the order was placed, confirmed and even restored (ADR 71). */
    @Test
    @Timeout(60)
    void givenAnOrderRestoredBeforeTheRelayRecordedItsPosition_thenItsTombstoneStaysAsTheRestoreLeftIt() {
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.warmedUpSale("rec2", 1);
            String records = RedisKeys.reservations(sale.id());
            var request = new ReservationRequest(ReservationId.of(sale.id(), "tok2"), new BuyerId("ann"),
                    new RequestId("k2"), List.of(new ReservationLine(OutboxFixture.SKU, 1)), Instant.now());
            fixture.stock.reserve(request);
            List<OutboxEntry> relayed = fixture.outbox.readNew(sale.id(), "relay", 10);
            fixture.stock.confirm(request.id());
            PendingRestore restore = PendingRestore.of(request.toReservation(), ReservationStatus.CANCELLED);
            assertThat(fixture.stock.restore(restore)).contains(ReservationStatus.ORDERED);

            fixture.outbox.acknowledge(sale.id(), relayed, List.of(new EventPosition(1, 7)));

            assertThat(fixture.redis.hgetall(records)).isEqualTo(Map.of(request.id().value(), "C"));
            assertThat(fixture.stock.restore(restore)).as("still found restored").contains(ReservationStatus.CANCELLED);
            assertThat(fixture.stock.reserve(request)).isEqualTo(new ReservationOutcome.Settled(request.id()));
        }
    }

    @Test
    @Timeout(30)
    void givenInstantsAndRecords_thenTheLuaCodecAndTheJavaCodecWriteAndReadTheSameText() throws Exception {
        String library;
        try (var in = RedisReservationRecordIT.class.getResourceAsStream("/lua/lib/ledger.lua")) {
            library = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<Instant> instants = List.of(Instant.parse("1970-01-01T00:00:00Z"), Instant.parse("2000-02-29T12:00:00.5Z"),
                Instant.parse("2031-01-02T03:04:05.000000007Z"), Instant.parse("2031-12-31T23:59:59.999999Z"),
                Instant.parse("2100-03-01T00:00:00.123Z"), Instant.parse("9999-12-31T23:59:59.999999999Z"),
                Instant.parse("1969-12-31T23:59:59.999999999Z"), Instant.now());
        for (Instant at : instants) {
            String lua = redis.eval(library + " return fs_instant_pack(ARGV[1])", ScriptOutputType.VALUE,
                    new String[0], at.toString());
            assertThat(lua).as(at.toString()).isEqualTo(ReservationRecord.pack(at));
            assertThat(ReservationRecord.unpack(lua)).isEqualTo(at);
        }
        var record = new ReservationRecord(ReservationStatus.CANCELLED, new BuyerId("ann"), new RequestId("k-1"),
                List.of(new ReservationLine(OutboxFixture.SKU, 2)), Instant.parse("2031-01-02T03:04:05.000000007Z"),
                null, Instant.parse("2031-01-02T03:04:06Z"), 1_924_999_999_999L);
        String rewritten = redis.eval(library + " local r = fs_record_decode(ARGV[1])"
                        + " r.status, r.pos = 'PAID', '4:2' return fs_record_encode(r)",
                ScriptOutputType.VALUE, new String[0], record.encode());
        assertThat(ReservationRecord.decode(rewritten)).isEqualTo(new ReservationRecord(ReservationStatus.PAID,
                record.buyer(), record.requestId(), record.lines(), record.reservedAt(), new EventPosition(4, 2),
                record.cancelledAt(), record.redrivenAt()));
    }

    @Test
    @Timeout(600)
    void givenSettledReservations_whenMeasured_thenTheRecordsHashCostsUnderTheBoundPerReservation() {
        try (var fixture = new OutboxFixture()) {
            Activity sale = fixture.warmedUpSale("rec", RESERVATIONS);
            fixture.redis.configResetstat();
            List<ReservationId> ids = reserveEach(fixture, sale.id());
            System.out.printf("%d reservations in flight: records hash %d bytes, in-flight index %d bytes; %s%n",
                    RESERVATIONS, memoryUsage(fixture, RedisKeys.reservations(sale.id())),
                    memoryUsage(fixture, RedisKeys.inFlight(sale.id())), scriptTime(fixture));
            fixture.redis.configResetstat();
            relayAndConfirm(fixture, sale.id(), ids);
            System.out.printf("confirmed: %s%n", scriptTime(fixture));

            long all = 0;
            for (String key : RedisRequestIndex.saleKeys(fixture.redis, sale.id())) {
                long bytes = memoryUsage(fixture, key);
                all += bytes;
                System.out.printf("%s of %d settled reservations: %d bytes, %.1f per reservation%n", key,
                        RESERVATIONS, bytes, (double) bytes / RESERVATIONS);
            }
            System.out.printf("every key of the sale: %d bytes, %.1f per settled reservation%n", all,
                    (double) all / RESERVATIONS);
            assertThat(fixture.redis.hlen(RedisKeys.inFlight(sale.id()))).as("all settled").isZero();
            assertThat(fixture.redis.hlen(RedisKeys.reservations(sale.id()))).as("no record left").isZero();
            assertThat(RedisRequestIndex.size(fixture.redis, sale.id())).as("every request still recognised")
                    .isEqualTo(RESERVATIONS);
            long index = 0;
            for (String key : RedisRequestIndex.keys(fixture.redis, sale.id())) {
                index += memoryUsage(fixture, key);
            }
            double kept = (double) (memoryUsage(fixture, RedisKeys.reservations(sale.id())) + index) / RESERVATIONS;
            assertThat(kept).as("records and request index per settled reservation")
                    .isLessThan(BYTES_PER_RESERVATION_BOUND);
        }
    }

    /** MEMORY USAGE with SAMPLES 0: every field counted, not an estimate from a few; 0 for a key that is gone. */
    private static long memoryUsage(OutboxFixture fixture, String key) {
        Long bytes = fixture.redis.dispatch(CommandType.MEMORY, new IntegerOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("USAGE").addKey(key).add("SAMPLES").add(0));
        return bytes == null ? 0 : bytes;
    }

    /** Redis's own time in scripts since the last CONFIG RESETSTAT: what the ADR compares, not asserted. */
    private static String scriptTime(OutboxFixture fixture) {
        return fixture.redis.info("commandstats").lines().filter(line -> line.startsWith("cmdstat_evalsha:"))
                .findFirst().orElse("no EVALSHA");
    }

    /** One unit each, as the service names them: a 32-hex token, the token as the request id (no key sent). */
    private static List<ReservationId> reserveEach(OutboxFixture fixture, ActivityId sale) {
        List<ReservationId> ids = new ArrayList<>();
        for (int i = 0; i < RESERVATIONS; i++) {
            String token = UUID.randomUUID().toString().replace("-", "");
            var request = new ReservationRequest(ReservationId.of(sale, token), new BuyerId("buyer-" + i),
                    new RequestId(token), List.of(new ReservationLine(OutboxFixture.SKU, 1)), Instant.now());
            assertThat(fixture.stock.reserve(request)).isInstanceOf(ReservationOutcome.Reserved.class);
            ids.add(request.id());
        }
        return ids;
    }

    private static void relayAndConfirm(OutboxFixture fixture, ActivityId sale, List<ReservationId> ids) {
        long offset = 0;
        List<OutboxEntry> entries;
        while (!(entries = fixture.outbox.readNew(sale, "relay", 1_000)).isEmpty()) {
            List<EventPosition> positions = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) {
                positions.add(new EventPosition(3, 1_000_000 + offset++));
            }
            fixture.outbox.acknowledge(sale, entries, positions);
        }
        System.out.printf("relayed: %s%n", scriptTime(fixture));
        fixture.redis.configResetstat();
        var settlement = new RedisHotStoreSettlement(fixture.redis, activityId -> { });
        for (int from = 0; from < ids.size(); from += 1_000) {
            settlement.settle(sale, ids.subList(from, Math.min(ids.size(), from + 1_000)), List.of());
        }
    }
}
