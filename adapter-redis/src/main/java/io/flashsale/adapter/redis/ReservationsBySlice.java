package io.flashsale.adapter.redis;

import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A sale's reservations (or what names them) grouped by the slice each id names (ADR 109), so that every call on them
 * names the keys of one slice, one slot: a sale of one slice is one group, as before slices.
 */
final class ReservationsBySlice {

    private ReservationsBySlice() {
    }

    /** The groups in the order their first member comes, each in the order of {@code items}. */
    static <T> Map<SaleSlice, List<T>> group(Iterable<T> items, Function<T, ReservationId> idOf) {
        Map<SaleSlice, List<T>> bySlice = new LinkedHashMap<>();
        for (T item : items) {
            bySlice.computeIfAbsent(idOf.apply(item).slice(), slice -> new ArrayList<>()).add(item);
        }
        return bySlice;
    }

    static Map<SaleSlice, List<ReservationId>> group(Iterable<ReservationId> ids) {
        return group(ids, Function.identity());
    }
}
