package io.flashsale.adapter.web;

import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.std.StdDeserializer;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Instants only as ISO-8601 text: a bare number would be read as epoch seconds, a guess at the caller's meaning. */
public final class IsoInstantDeserializer extends StdDeserializer<Instant> {

    public IsoInstantDeserializer() {
        super(Instant.class);
    }

    @Override
    public Instant deserialize(JsonParser parser, DeserializationContext context) {
        if (!parser.hasToken(JsonToken.VALUE_STRING)) {
            return (Instant) context.handleUnexpectedToken(Instant.class, parser);
        }
        String text = parser.getString();
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return (Instant) context.handleWeirdStringValue(Instant.class, text, "not an ISO-8601 instant");
        }
    }
}
