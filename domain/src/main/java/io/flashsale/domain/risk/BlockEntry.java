package io.flashsale.domain.risk;

import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.Require;

import java.time.Instant;

/**
 * One entry of the blocklist: what it blocks ({@code kind} and {@code value}, the value in its canonical form), why,
 * who added it and when.
 */
public record BlockEntry(BlockKind kind, String value, String reason, String operator, Instant createdAt) {

    public BlockEntry {
        Require.present(kind, "kind");
        value = canonical(kind, value);
        reason = Require.text(reason, 200, "reason");
        operator = Require.text(operator, 64, "operator");
        Require.present(createdAt, "createdAt");
    }

    /**
     * The one spelling a value is stored and compared under: a buyer and a device id as they are (validated), an
     * address as its block's network and prefix.
     *
     * @throws io.flashsale.domain.shared.InvalidValueException when the value is not one of its kind
     */
    public static String canonical(BlockKind kind, String value) {
        Require.present(value, "value");
        return switch (kind) {
            case BUYER -> new BuyerId(value).value();
            case DEVICE -> new DeviceId(value).value();
            case ADDRESS -> AddressBlock.parse(value).text();
        };
    }
}
