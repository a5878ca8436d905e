package io.flashsale.application.order.port.out;

/**
 * Where the broker stored one event: its partition and its offset in that partition's log. Recorded with the
 * reservation when the relay's publish is acknowledged, so reconciliation can tell whether the order consumer has
 * read past it.
 */
public record EventPosition(int partition, long offset) {

    public EventPosition {
        if (partition < 0 || offset < 0) {
            throw new IllegalArgumentException("partition and offset must not be negative, were " + partition + "/"
                    + offset);
        }
    }

    /** Written {@code <partition>:<offset>}, as the hot store keeps it. */
    public static EventPosition parse(String text) {
        int colon = text.indexOf(':');
        if (colon < 1) {
            throw new IllegalArgumentException("not a position: " + text);
        }
        return new EventPosition(Integer.parseInt(text.substring(0, colon)), Long.parseLong(text.substring(colon + 1)));
    }

    @Override
    public String toString() {
        return partition + ":" + offset;
    }
}
