package io.flashsale.load;

/**
 * What the harness offers and for how long, from system properties (defaults in brackets):
 * {@code flashsale.load.rate} reservations per second [500], {@code flashsale.load.seconds} of load [30],
 * {@code flashsale.load.warmup-seconds} at the start left out of the steady window [5],
 * {@code flashsale.load.max-in-flight} requests at once before the client counts a send as skipped [256],
 * {@code flashsale.load.drain-seconds} to wait for the last orders after the load [120].
 * The stock is large enough that the sale never sells out: every request is a new buyer taking one unit.
 */
record LoadSettings(int rate, int seconds, int warmupSeconds, int maxInFlight, int drainSeconds) {

    LoadSettings {
        if (rate < 1 || seconds < 1 || maxInFlight < 1 || drainSeconds < 1) {
            throw new IllegalArgumentException("rate, seconds, max-in-flight and drain-seconds must be positive");
        }
        if (warmupSeconds < 0 || warmupSeconds >= seconds) {
            throw new IllegalArgumentException("warmup-seconds must be at least 0 and below seconds");
        }
    }

    static LoadSettings fromSystemProperties() {
        return new LoadSettings(number("rate", 500), number("seconds", 30), number("warmup-seconds", 5),
                number("max-in-flight", 256), number("drain-seconds", 120));
    }

    int requests() {
        return rate * seconds;
    }

    /** Every request may win: a tenth more than the requests, so the sale never sells out during the run. */
    long stock() {
        return requests() + requests() / 10L + 100;
    }

    private static int number(String name, int fallback) {
        return Integer.parseInt(System.getProperty("flashsale.load." + name, Integer.toString(fallback)).trim());
    }
}
