package io.flashsale.domain.risk;

import java.util.Locale;

/** What a blocklist entry names: a buyer id, a client address or block of addresses (CIDR), a device id. */
public enum BlockKind {
    BUYER,
    ADDRESS,
    DEVICE;

    /** The name the API and the database carry: {@code buyer}, {@code address}, {@code device}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @throws io.flashsale.domain.shared.InvalidValueException for any other text */
    public static BlockKind ofLabel(String label) {
        for (BlockKind kind : values()) {
            if (kind.label().equals(label)) {
                return kind;
            }
        }
        throw new io.flashsale.domain.shared.InvalidValueException("kind", "must be buyer, address or device");
    }
}
