package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.reservation.AdmissionLimit;

import java.util.Objects;

/**
 * A bucket's name: the limit it serves and what it counts (a buyer at a sale, a client address, a sale). The parts
 * are validated values (ids, an address of hex digits, dots and colons), never text a store runs.
 */
public record BucketKey(AdmissionLimit limit, String subject) {

    public BucketKey {
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(subject, "subject");
    }
}
