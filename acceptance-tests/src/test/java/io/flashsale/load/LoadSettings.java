package io.flashsale.load;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the harness offers and for how long, from system properties (defaults in brackets):
 * {@code flashsale.load.scenario} {@code steady} (a fixed rate, orders placed while reservations arrive) or
 * {@code backlog} (a backlog drained, then expired) [steady];
 * {@code flashsale.load.rate} reservations per second [500], {@code flashsale.load.seconds} of load [30],
 * {@code flashsale.load.warmup-seconds} at the start left out of the steady window [5],
 * {@code flashsale.load.max-in-flight} requests at once before the client counts a send as skipped [256],
 * {@code flashsale.load.drain-seconds} to wait for the last orders after the load [120];
 * {@code flashsale.load.warm-service-seconds} of the same rate to a sale of its own, all placed, before the measured
 * run, so that it meets a warmed service (steady scenario only) [0: a service started for the run];
 * for the backlog scenario {@code flashsale.load.backlog} accepted reservations [100000] and
 * {@code flashsale.load.payment-timeout-seconds} of the sale [60];
 * {@code flashsale.load.service-properties}: {@code name=value} pairs separated by {@code ;} passed to the service on
 * top of the harness's own (how sizing is compared with one jar) [none];
 * {@code flashsale.load.jfr} true: the service records a JFR profile into target/load-harness/service-(start).jfr [false].
 * The stock is large enough that the sale never sells out: every request is a new buyer taking one unit.
 */
record LoadSettings(String scenario, int rate, int seconds, int warmupSeconds, int maxInFlight, int drainSeconds,
                    int warmServiceSeconds, int backlog, int paymentTimeoutSeconds, Map<String, String> serviceProperties, boolean jfr) {

    static final String STEADY = "steady";
    static final String BACKLOG = "backlog";

    LoadSettings {
        if (!STEADY.equals(scenario) && !BACKLOG.equals(scenario)) {
            throw new IllegalArgumentException("scenario must be " + STEADY + " or " + BACKLOG + ", was " + scenario);
        }
        if (rate < 1 || seconds < 1 || maxInFlight < 1 || drainSeconds < 1 || backlog < 1
                || paymentTimeoutSeconds < 1) {
            throw new IllegalArgumentException(
                    "rate, seconds, max-in-flight, drain-seconds, backlog and payment-timeout-seconds must be positive");
        }
        if (warmServiceSeconds < 0) {
            throw new IllegalArgumentException("warm-service-seconds must be at least 0");
        }
        if (warmupSeconds < 0 || warmupSeconds >= seconds) {
            throw new IllegalArgumentException("warmup-seconds must be at least 0 and below seconds");
        }
        serviceProperties = Map.copyOf(serviceProperties);
    }

    static LoadSettings fromSystemProperties() {
        return new LoadSettings(text("scenario", STEADY), number("rate", 500), number("seconds", 30),
                number("warmup-seconds", 5), number("max-in-flight", 256), number("drain-seconds", 120),
                number("warm-service-seconds", 0),
                number("backlog", 100_000), number("payment-timeout-seconds", 60),
                pairs(text("service-properties", "")), Boolean.parseBoolean(text("jfr", "false")));
    }

    int requests() {
        return rate * seconds;
    }

    /** Every request may win: a tenth more than the requests, so the sale never sells out during the run. */
    long stock() {
        long requests = BACKLOG.equals(scenario) ? backlog : requests();
        return requests + requests / 10L + 100;
    }

    /** {@code a=1;b=2} as a map, in order; blank parts are skipped. */
    static Map<String, String> pairs(String text) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (String part : text.split(";")) {
            if (part.isBlank()) {
                continue;
            }
            int equals = part.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("service property without name=value: " + part);
            }
            pairs.put(part.substring(0, equals).trim(), part.substring(equals + 1).trim());
        }
        return pairs;
    }

    private static String text(String name, String fallback) {
        return System.getProperty("flashsale.load." + name, fallback).trim();
    }

    private static int number(String name, int fallback) {
        return Integer.parseInt(text(name, Integer.toString(fallback)));
    }
}
