package io.flashsale.chaos.history;

/**
 * One request a client sent and what it saw. A request with no answer (timeout, reset, refused) is {@link #unknown}:
 * it may or may not have taken effect, and the checker treats it so.
 *
 * @param sentMillis     from the start of the schedule's workload
 * @param answeredMillis -1 when unknown
 * @param status         -1 when unknown
 * @param code           the problem's {@code code}, or null
 */
public record Entry(long id, String kind, int instance, String buyer, String requestId, String reservationId,
                    String requestBody, long sentMillis, long answeredMillis, int status, String code, String body) {

    public boolean unknown() {
        return status < 0;
    }

    @Override
    public String toString() {
        return "#%d %s via %d buyer=%s req=%s res=%s sent=%dms answered=%s status=%s code=%s body=%s".formatted(id, kind,
                instance, buyer, requestId, reservationId, sentMillis, unknown() ? "-" : answeredMillis + "ms",
                unknown() ? "UNKNOWN" : status, code, abbreviate(body));
    }

    private static String abbreviate(String text) {
        return text == null || text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
