package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotReplyTest {

    private static final ActivityId SALE = new ActivityId("s1");
    private static final String AT = "2030-01-01T00:00:00.000000001Z";

    @Test
    void givenNoFiguresReply_thenTheActivityIsNotLoaded() {
        assertThat(SnapshotReply.Figures.parse(List.of())).isEmpty();
    }

    @Test
    void givenFiguresAndPages_thenEachSkuGetsItsFiguresSegmentsAdjustmentsHoldingsReservationLinesAndVersion() {
        SnapshotReply.Figures figures = figures("a:version", "4");

        HotStoreSnapshot snapshot = SnapshotReply.assemble(SALE, figures, figures,
                Map.of("ann:a", "2", "ann:b", "1", "bob:a", "3", "cid:a", "0"),
                List.of(record("s1.r1", ReservationStatus.RESERVED, "ann", "a:2,b:1", null),
                        record("s1.r2", ReservationStatus.CANCELLED, "bob", "a:1", Instant.parse(AT))),
                Set.of("s1.r1"));

        HotSkuSnapshot a = snapshot.sku(new SkuId("a")).orElseThrow();
        assertThat(a.figures()).isEqualTo(new LedgerFigures(10, 3, 2, 5));
        assertThat(a.version()).isEqualTo("L1/4");
        assertThat(a.steady()).isTrue();
        assertThat(a.appliedAdjustments()).isEqualTo(Set.of(7L));
        assertThat(a.holdings()).isEqualTo(Map.of(new BuyerId("ann"), 2L, new BuyerId("bob"), 3L));
        assertThat(a.reservations()).containsExactlyInAnyOrder(
                new HotReservation(new ReservationId("s1.r1"), new BuyerId("ann"), ReservationStatus.RESERVED, 2,
                        Instant.parse(AT), null, true),
                new HotReservation(new ReservationId("s1.r2"), new BuyerId("bob"), ReservationStatus.CANCELLED, 1,
                        Instant.parse(AT), Instant.parse(AT), false));
        HotSkuSnapshot b = snapshot.sku(new SkuId("b")).orElseThrow();
        assertThat(b.figures()).as("a lost ledger reads as nothing").isEqualTo(LedgerFigures.ZERO);
        assertThat(b.version()).isEqualTo("L1/0");
        assertThat(b.reservations()).extracting(HotReservation::units).containsExactly(1L);
    }

    @Test
    void givenASkuWhoseVersionMovedBetweenTheTwoFigures_thenOnlyThatSkuIsMoving() {
        HotStoreSnapshot snapshot = SnapshotReply.assemble(SALE, figures("a:version", "4"), figures("a:version", "5"),
                Map.of(), List.of(), Set.of());

        assertThat(snapshot.sku(new SkuId("a")).orElseThrow().version()).isEqualTo(HotSkuSnapshot.MOVING);
        assertThat(snapshot.sku(new SkuId("a")).orElseThrow().steady()).isFalse();
        assertThat(snapshot.sku(new SkuId("b")).orElseThrow().steady()).isTrue();
    }

    @Test
    void givenAReloadBetweenTheTwoFigures_thenEverySkuIsMoving() {
        SnapshotReply.Figures reloaded = new SnapshotReply.Figures(List.of("a", "b"), "L2",
                figures("a:version", "4").stock(), false);

        HotStoreSnapshot snapshot = SnapshotReply.assemble(SALE, figures("a:version", "4"), reloaded, Map.of(),
                List.of(), Set.of());

        assertThat(snapshot.skus().values()).noneMatch(HotSkuSnapshot::steady);
    }

    @Test
    void givenAReservationRecordThatCannotBeReadBack_thenReadingItFailsLoudlyNamingIt() {
        assertThatThrownBy(() -> SnapshotReply.Record.of("s1.r9", "L|ann|k1|a:1|" + AT))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("s1.r9");
        assertThatThrownBy(() -> SnapshotReply.parseAtomic(SALE, List.of("a,b", "L1", List.of(), List.of(),
                List.of(List.of("s1.r9", "R|ann")), List.of())))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("s1.r9");
    }

    private static SnapshotReply.Record record(String id, ReservationStatus status, String buyer, String lines,
                                               Instant cancelledAt) {
        return SnapshotReply.Record.of(id, new ReservationRecord(status, new BuyerId(buyer), new RequestId("k1"),
                ReservationLines.decode(lines), Instant.parse(AT), null, cancelledAt, null).encode());
    }

    private static SnapshotReply.Figures figures(String... extra) {
        List<Object> stock = new ArrayList<>(List.of("a:total", "10", "a:reserved", "3", "a:sold", "2",
                "a:segments", "2", "a:avail:1", "4", "a:avail:2", "1", "a:adj:7", "1", "a:limit", "5", "a:cursor", "9"));
        stock.addAll(List.of(extra));
        return SnapshotReply.Figures.parse(List.of("a,b", "L1", stock)).orElseThrow();
    }
}
