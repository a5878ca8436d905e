package io.flashsale.adapter.mysql;

import io.flashsale.application.order.port.out.ProviderPaymentsPort;
import io.flashsale.application.order.port.out.RefusedPayment;
import io.flashsale.domain.order.PaymentReference;
import io.flashsale.domain.reservation.ReservationId;
import org.springframework.dao.DuplicateKeyException;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The provider's payments on {@code purchase_order} (the reference, unique) and {@code payment_conflicts}. Each call
 * is one statement, its own transaction; paying moves no stock.
 */
public class MysqlProviderPayments implements ProviderPaymentsPort {

    private final PaymentDao dao;
    private final DeadlineClock deadlineClock;

    MysqlProviderPayments(PaymentDao dao, DeadlineClock deadlineClock) {
        this.dao = dao;
        this.deadlineClock = deadlineClock;
    }

    @Override
    public PaymentMark markPaid(ReservationId reservationId, PaymentReference reference, Instant providerPaidAt,
                                Instant at) {
        try {
            Instant stamp = stored(at);
            int changed = dao.markPaid(reservationId.value(), reference.value(), stored(providerPaidAt), stamp,
                    deadlineClock.judgedAt(stamp));
            return changed == 1 ? PaymentMark.PAID : PaymentMark.NOT_CHANGED;
        } catch (DuplicateKeyException referenceOfAnotherOrder) {
            return PaymentMark.REFERENCE_TAKEN;
        }
    }

    @Override
    public Optional<PaymentReference> referenceOf(ReservationId reservationId) {
        return Optional.ofNullable(dao.selectReference(reservationId.value())).map(PaymentReference::new);
    }

    @Override
    public void recordRefused(RefusedPayment refused) {
        Instant receivedAt = stored(refused.receivedAt());
        dao.upsertRefused(new RefusedPaymentRow(refused.reference().value(), refused.reservationId().value(),
                refused.reason().name(), refused.orderStatus().name(), stored(refused.providerPaidAt()),
                receivedAt, receivedAt, 1));
    }

    private static Instant stored(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
