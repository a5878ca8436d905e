package io.flashsale.adapter.kafka;

import io.flashsale.domain.reservation.Reservation;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON for {@link ReservationMessage}. Fields this reader does not know are skipped (a newer producer may add
 * some); a missing, null or mistyped field, or one that breaks a domain rule, is a
 * {@link MalformedReservationMessageException}. Thread-safe.
 */
public final class ReservationMessageCodec {

    private final JsonMapper json = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // 1.5 units is not a quantity: refuse it instead of truncating to 1.
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .build();

    public String encode(Reservation reservation) {
        return toJson(ReservationMessage.of(reservation));
    }

    /** @throws MalformedReservationMessageException when the payload is not a readable reservation event */
    public Reservation decode(String payload) {
        return fromJson(payload).toReservation();
    }

    public String toJson(ReservationMessage message) {
        return json.writeValueAsString(message);
    }

    /** @throws MalformedReservationMessageException when the payload is not JSON of a complete message */
    public ReservationMessage fromJson(String payload) {
        if (payload == null || payload.isBlank()) {
            throw new MalformedReservationMessageException("empty reservation message");
        }
        try {
            return json.readValue(payload, ReservationMessage.class);
        } catch (JacksonException unreadable) {
            throw new MalformedReservationMessageException("unreadable reservation message"
                    + field(unreadable) + ": " + unreadable.getOriginalMessage(), unreadable);
        }
    }

    /** Where in the message Jackson stopped, e.g. " at lines[0].quantity"; empty at the top level. */
    private static String field(JacksonException unreadable) {
        var path = new StringBuilder();
        for (JacksonException.Reference reference : unreadable.getPath()) {
            if (reference.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "" : " at " + path;
    }
}
