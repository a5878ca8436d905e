package io.flashsale.benchmarks.redis;

/** Where Redis is; the benchmark's keys are {@code bench:{<sku>}:*} (or the service's for strategy 7), deleted on close. */
public record RedisServer(String host, int port) {

    public String uri() {
        return "redis://" + host + ":" + port;
    }
}
