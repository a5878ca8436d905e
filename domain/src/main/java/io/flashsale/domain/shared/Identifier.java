package io.flashsale.domain.shared;

/**
 * The one shape every external id takes, {@code [A-Za-z0-9_-]{1,64}}: safe in Redis key names, URLs and logs.
 *
 * <p>Checked by hand rather than by a regular expression: every id of every reservation and order is checked
 * on the order pipeline's path, where the regex engine took 8% of the consumer's CPU (docs/order-pipeline.md).
 * The tests keep the regular expressions as the referee.
 */
public final class Identifier {

    public static final int MAX_LENGTH = 64;

    private Identifier() {
    }

    public static boolean isValid(String value) {
        return value != null && isRun(value, 0, value.length(), MAX_LENGTH, true);
    }

    public static String require(String value, String field) {
        if (!isValid(value)) {
            throw new InvalidValueException(field, "must be 1-" + MAX_LENGTH + " characters of [A-Za-z0-9_-]");
        }
        return value;
    }

    /**
     * Whether {@code value[from, to)} is 1 to {@code maxLength} ASCII letters and digits, and also {@code -} and
     * {@code _} when {@code dashAndUnderscore}.
     */
    public static boolean isRun(String value, int from, int to, int maxLength, boolean dashAndUnderscore) {
        int length = to - from;
        if (length < 1 || length > maxLength) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = value.charAt(i);
            boolean letterOrDigit = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!letterOrDigit && !(dashAndUnderscore && (c == '-' || c == '_'))) {
                return false;
            }
        }
        return true;
    }
}
