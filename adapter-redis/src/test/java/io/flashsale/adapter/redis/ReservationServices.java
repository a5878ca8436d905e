package io.flashsale.adapter.redis;

import io.flashsale.application.port.out.ActivityLookupPort;
import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.StockReservationPort;
import io.flashsale.application.service.KnownRefusals;
import io.flashsale.application.service.ReservationService;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

/** The application's reservation path over a Redis adapter, for tests of what it answers from memory. */
final class ReservationServices {

    private ReservationServices() {
    }

    /** Reserves through {@code stock}; the database is never asked (a sale Redis does not hold is "not found"). */
    static ReservationService over(StockReservationPort stock, KnownRefusals known, Clock clock) {
        ActivityLookupPort noLookups = id -> Optional.empty();
        return new ReservationService(stock, noLookups, unused(OrderRepository.class),
                () -> UUID.randomUUID().toString().replace("-", ""), clock, known);
    }

    private static <T> T unused(Class<T> port) {
        return port.cast(Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, (proxy, method, args) -> {
            throw new AssertionError(method.getName() + " is not on the reservation path");
        }));
    }
}
