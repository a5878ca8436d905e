package io.flashsale.domain.shared;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Unmodifiable copies of maps that hold one entry per buyer (a sale's holdings and purchases: hundreds of thousands).
 * {@link Map#copyOf} probes linearly, and ids that count up ({@code buyer-1}, {@code buyer-2}, ...) have hash codes
 * that count up too, so its copies and look-ups of such maps were half of a reconciliation pass's CPU at 150,000
 * buyers (docs/order-pipeline.md, 2026-12-02); a {@link HashMap} spreads and buckets them. Nulls are refused, as
 * {@code Map.copyOf} refuses them.
 */
public final class LargeMaps {

    private LargeMaps() {
    }

    public static <K, V> Map<K, V> copyOf(Map<? extends K, ? extends V> map) {
        Map<K, V> copy = new HashMap<>(map);
        copy.forEach((key, value) -> {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        });
        return Collections.unmodifiableMap(copy);
    }
}
