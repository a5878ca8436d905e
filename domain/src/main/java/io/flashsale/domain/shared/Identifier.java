package io.flashsale.domain.shared;

import java.util.regex.Pattern;

/** The one shape every external id takes: safe in Redis key names, URLs and logs. */
public final class Identifier {

    public static final int MAX_LENGTH = 64;
    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9_-]{1," + MAX_LENGTH + "}");

    private Identifier() {
    }

    public static boolean isValid(String value) {
        return value != null && SHAPE.matcher(value).matches();
    }

    public static String require(String value, String field) {
        if (!isValid(value)) {
            throw new InvalidValueException(field, "must be 1-" + MAX_LENGTH + " characters of [A-Za-z0-9_-]");
        }
        return value;
    }
}
