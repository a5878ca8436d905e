package io.flashsale.testsupport;

public record RedisEndpoint(String host, int port) {

    /** A Lettuce/Spring style URI, e.g. {@code redis://127.0.0.1:6379}. */
    public String uri() {
        return "redis://" + host + ":" + port;
    }
}
