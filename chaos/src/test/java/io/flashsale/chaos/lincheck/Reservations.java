package io.flashsale.chaos.lincheck;

import io.flashsale.application.contract.ContractFixtures;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;

import java.util.List;

/**
 * The operations both sides of the Lincheck test run, on any store that plays the hot path and the moves: one small sale (3 units, 2 per buyer), two
 * buyers, three request ids each. A reservation's id follows from buyer and request id, so a replay, a release or a
 * confirmation names the same reservation on both sides.
 */
final class Reservations<S extends StockReservationPort & ReservationTransitionsPort> {

    static final String SKU = "lin";
    static final long STOCK = 3;

    private final S port;
    private final ActivityId activityId = ContractFixtures.randomActivityId();

    Reservations(S port) {
        this.port = port;
        Activity sale = ContractFixtures.openSale(activityId, ContractFixtures.limit(2),
                ContractFixtures.item(SKU, STOCK));
        port.warmUp(sale);
    }

    String reserve(int buyer, int request, int quantity) {
        ReservationRequest reservation = new ReservationRequest(id(buyer, request), new BuyerId("buyer" + buyer),
                new RequestId("req" + request), List.of(ContractFixtures.line(SKU, quantity)), ContractFixtures.NOW);
        ReservationOutcome outcome = port.reserve(reservation);
        return switch (outcome) {
            case ReservationOutcome.Reserved reserved -> "RESERVED " + token(reserved.reservation().id());
            case ReservationOutcome.Replayed replayed -> "REPLAYED " + token(replayed.reservation().id());
            case ReservationOutcome.Settled settled -> "SETTLED " + token(settled.reservationId());
            default -> outcome.toString();
        };
    }

    boolean release(int buyer, int request) {
        return port.release(id(buyer, request));
    }

    boolean confirm(int buyer, int request) {
        return port.confirm(id(buyer, request));
    }

    /** The whole ledger (total, reserved, sold), so a lost or doubled unit shows in any later look. */
    String ledger() {
        return port.stock(activityId).orElseThrow().stream()
                .filter(stock -> stock.skuId().equals(new SkuId(SKU))).findFirst().orElseThrow().ledger().toString();
    }

    /** The part after the sale's id: each side runs its own sale, the tokens are what must agree. */
    private static String token(ReservationId id) {
        return id.value().substring(id.value().indexOf('.') + 1);
    }

    private ReservationId id(int buyer, int request) {
        return ReservationId.of(activityId, "b" + buyer + "r" + request);
    }
}
