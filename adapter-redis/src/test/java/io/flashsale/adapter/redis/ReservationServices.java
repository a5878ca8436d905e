package io.flashsale.adapter.redis;

import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.reservation.service.KnownRefusals;
import io.flashsale.application.reservation.service.ReservationService;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The application's reservation path over a Redis adapter, for tests of what it answers from memory. */
final class ReservationServices {

    private ReservationServices() {
    }

    /** Reserves through {@code stock}; the database is never asked (a sale Redis does not hold is "not found"). */
    static ReservationService over(StockReservationPort stock, KnownRefusals known, Clock clock) {
        return over(stock, known, clock, List.of());
    }

    /**
     * As {@link #over(StockReservationPort, KnownRefusals, Clock)}, with the database of record holding {@code orders}:
     * a keyed retry of one whose record left the hot store (ADR 71) is answered from it, as the service does.
     */
    static ReservationService over(StockReservationPort stock, KnownRefusals known, Clock clock, List<Order> orders) {
        ActivityLookupPort noLookups = id -> Optional.empty();
        Map<ReservationId, Order> byId = orders.stream().collect(Collectors.toMap(Order::id, Function.identity()));
        OrderLookupPort ordersOnRecord = port(OrderLookupPort.class, (method, args) ->
                method.equals("find") && args.length == 1 && args[0] instanceof ReservationId id
                        ? Optional.ofNullable(byId.get(id)) : null);
        return new ReservationService(stock, port(HeldReservationsPort.class, (method, args) -> null), noLookups,
                                      ordersOnRecord,
                () -> UUID.randomUUID().toString().replace("-", ""), clock, known);
    }

    /** A port whose calls {@code answers} answers (non-null), every other call failing the test. */
    private static <T> T port(Class<T> port, BiFunction<String, Object[], Object> answers) {
        return port.cast(Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, (proxy, method, args) -> {
            Object answer = answers.apply(method.getName(), args == null ? new Object[0] : args);
            if (answer == null) {
                throw new AssertionError(method.getName() + " is not on the reservation path");
            }
            return answer;
        }));
    }
}
