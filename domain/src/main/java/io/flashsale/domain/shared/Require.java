package io.flashsale.domain.shared;

import java.util.Objects;

/** Small guards for record constructors. */
public final class Require {

    private Require() {
    }

    public static <T> T present(T value, String field) {
        if (value == null) {
            throw new InvalidValueException(field, "is required");
        }
        return value;
    }

    public static long inRange(long value, long min, long max, String field) {
        if (value < min || value > max) {
            throw new InvalidValueException(field, "must be between " + min + " and " + max);
        }
        return value;
    }

    public static int inRange(int value, int min, int max, String field) {
        return (int) inRange((long) value, min, max, field);
    }

    public static String text(String value, int maxLength, String field) {
        if (value == null || value.isBlank()) {
            throw new InvalidValueException(field, "must not be blank");
        }
        if (value.length() > maxLength) {
            throw new InvalidValueException(field, "must be at most " + maxLength + " characters");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidValueException(field, "must not contain control characters");
        }
        return Objects.requireNonNull(value);
    }
}
