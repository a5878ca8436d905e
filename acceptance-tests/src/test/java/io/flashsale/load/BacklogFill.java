package io.flashsale.load;

import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.FlashsaleApi;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A closed workload that builds a backlog: {@code workers} buyers' requests at once, each from a new buyer for one
 * unit, as fast as the service answers, until {@code requests} were sent. Not a rate: only the count matters.
 */
final class BacklogFill {

    private final LongAdder accepted = new LongAdder();
    private final Map<String, LongAdder> others = new ConcurrentHashMap<>();

    /** @return seconds the fill took */
    double fill(FlashsaleApi api, String saleId, String skuId, String buyerPrefix, int requests, int workers) {
        AtomicLong next = new AtomicLong();
        long start = System.nanoTime();
        try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int worker = 0; worker < workers; worker++) {
                senders.submit(() -> {
                    for (long i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
                        send(api, saleId, skuId, buyerPrefix + i);
                    }
                });
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private void send(FlashsaleApi api, String saleId, String skuId, String buyer) {
        try {
            ApiAnswer answer = api.send(api.reserve(saleId, buyer,
                    Map.of("requestId", "backlog", "items", List.of(Map.of("skuId", skuId, "quantity", 1)))));
            if (answer.status() == 202) {
                accepted.increment();
            } else {
                others.computeIfAbsent(answer.status() + " " + answer.code(), key -> new LongAdder()).increment();
            }
        } catch (UncheckedIOException | IllegalStateException failed) {
            others.computeIfAbsent("no answer", key -> new LongAdder()).increment();
        }
    }

    long accepted() {
        return accepted.sum();
    }

    Map<String, Long> otherOutcomes() {
        Map<String, Long> counts = new TreeMap<>();
        others.forEach((outcome, count) -> counts.put(outcome, count.sum()));
        return counts;
    }
}
