package io.flashsale.domain.shared;

/** A value that breaks a domain rule; names the field so the caller can point at it. */
public class InvalidValueException extends IllegalArgumentException {

    private final String field;

    public InvalidValueException(String field, String message) {
        super(field + " " + message);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
