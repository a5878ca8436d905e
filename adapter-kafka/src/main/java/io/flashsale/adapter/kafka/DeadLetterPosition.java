package io.flashsale.adapter.kafka;

import java.util.Optional;
import java.util.regex.Pattern;

/** Where a dead letter sits in the dead-letter topic; written {@code <partition>-<offset>}, the admin API's id. */
public record DeadLetterPosition(int partition, long offset) {

    private static final Pattern SHAPE = Pattern.compile("\\d{1,9}-\\d{1,18}");

    public DeadLetterPosition {
        if (partition < 0 || offset < 0) {
            throw new IllegalArgumentException("partition and offset must not be negative");
        }
    }

    /** Empty for anything that is not an id this adapter handed out. */
    public static Optional<DeadLetterPosition> parse(String id) {
        if (id == null || !SHAPE.matcher(id).matches()) {
            return Optional.empty();
        }
        int dash = id.indexOf('-');
        int partition = Integer.parseInt(id.substring(0, dash));
        return Optional.of(new DeadLetterPosition(partition, Long.parseLong(id.substring(dash + 1))));
    }

    @Override
    public String toString() {
        return partition + "-" + offset;
    }
}
