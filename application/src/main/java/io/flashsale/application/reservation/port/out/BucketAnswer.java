package io.flashsale.application.reservation.port.out;

import java.time.Duration;

/**
 * @param taken          whether a token was taken
 * @param remaining      tokens left after this answer
 * @param untilNextToken zero when taken; else how long until the bucket holds a token again
 */
public record BucketAnswer(boolean taken, long remaining, Duration untilNextToken) {

    private static final BucketAnswer TAKEN_UNKNOWN = new BucketAnswer(true, -1, Duration.ZERO);

    /** Taken, with the tokens left unknown (a store that could not be asked lets the attempt through). */
    public static BucketAnswer takenUnknown() {
        return TAKEN_UNKNOWN;
    }
}
