package io.flashsale.testsupport;

final class Env {

    private Env() {
    }

    static String get(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? System.getProperty(name, fallback) : value;
    }

    static int getInt(String name, int fallback) {
        return Integer.parseInt(get(name, Integer.toString(fallback)));
    }
}
