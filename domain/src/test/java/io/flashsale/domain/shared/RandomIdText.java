package io.flashsale.domain.shared;

import java.util.Random;

/**
 * Text for comparing the hand-written id checks with their regular expressions: mostly small letters, now and then
 * a character at a boundary of the id classes ('/' and ':' around the digits, '@' and '[' around the capitals, '`'
 * and '{' around the small letters), a dot, a non-ASCII letter or a control character, and lengths around 64 as
 * well as short ones.
 */
public final class RandomIdText {

    private static final String PIECES = "aZz09AZ_-/:@[`{.\u00e9\u0430 \n\u0000";

    private RandomIdText() {
    }

    public static String next(Random random) {
        int length = random.nextInt(4) == 0 ? 60 + random.nextInt(8) : random.nextInt(8);
        return next(random, length);
    }

    public static String next(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(random.nextInt(8) == 0 ? PIECES.charAt(random.nextInt(PIECES.length()))
                    : (char) ('a' + random.nextInt(26)));
        }
        return text.toString();
    }
}
