package io.flashsale.adapter.redis.internal;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationLine;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Lines as stored in a reservation record and an outbox entry: {@code "sku:quantity,sku:quantity"}. */
public final class ReservationLines {

    private ReservationLines() {
    }

    public static String encode(List<ReservationLine> lines) {
        return lines.stream()
                .map(line -> line.skuId().value() + ":" + line.quantity())
                .collect(Collectors.joining(","));
    }

    public static List<ReservationLine> decode(String encoded) {
        var lines = new ArrayList<ReservationLine>();
        for (String line : encoded.split(",")) {
            int colon = line.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalStateException("malformed reservation lines: " + encoded);
            }
            lines.add(new ReservationLine(new SkuId(line.substring(0, colon)),
                    Integer.parseInt(line.substring(colon + 1))));
        }
        return lines;
    }
}
