package io.flashsale.adapter.redis.internal;

import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.internal.ExceptionFactory;
import io.lettuce.core.internal.Exceptions;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * Group commit of one sale's reserve attempts (ADR 0068): while no call of {@code reserve.lua} for a sale is in
 * flight, an attempt goes at once, alone; attempts that arrive while one is in flight wait, and go together, in
 * arrival order, in the next call, at most {@code maxBatch} per call. A sale lives in one Redis core, where a call's
 * fixed cost outweighs an attempt's own, so a busy sale pays it once per batch instead of once per attempt. A sale in
 * slices (ADR 109) lives in one core per slice: each slice is batched on its own, as a sale of one slice is.
 * <p>
 * The call runs on the client's asynchronous API: no thread waits for a batch, each caller waits for its own reply,
 * at most the command timeout, and gets its attempt's reply or the failure of its call, thrown as the synchronous API
 * throws it. A caller that gave up before its attempt was sent is left out of the call. A call carries attempts of
 * one header (ADR 105): an attempt of another clock, bucket or filter shape than the one before it starts the next
 * call.
 * {@code maxBatch} 1: no batching, every attempt its own call at once, as many in flight as there are callers.
 */
public final class ReserveBatcher {

    /** Starts one call of the script with these KEYS and ARGV; its reply holds one reply per attempt. */
    @FunctionalInterface
    public interface ScriptCall {
        CompletableFuture<List<Object>> start(String[] keys, String[] args);
    }

    /** What the batcher has sent since it was made. */
    public record Figures(long calls, long attempts, long largestBatch) {
    }

    private record Pending(ReserveScriptCall.Attempt attempt, CompletableFuture<List<Object>> reply) {
    }

    private final ScriptCall script;
    private final int maxBatch;
    private final Duration timeout;
    /** A slice's waiting attempts; a slice is present exactly while a call of it is in flight. */
    private final ConcurrentHashMap<SaleSlice, ArrayDeque<Pending>> inFlight = new ConcurrentHashMap<>();
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong attempts = new AtomicLong();
    private final LongAccumulator largestBatch = new LongAccumulator(Math::max, 0);

    /**
     * @param maxBatch attempts per call at most; 1 for no batching
     * @param timeout  how long a caller waits for its reply, and a call for its answer, before it fails
     */
    public ReserveBatcher(ScriptCall script, int maxBatch, Duration timeout) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("a call carries at least one attempt, not " + maxBatch);
        }
        this.script = script;
        this.maxBatch = maxBatch;
        this.timeout = timeout;
    }

    /** The attempt's own reply, after the attempts queued before it in its slice were judged. */
    public List<Object> decide(ReserveScriptCall.Attempt attempt) {
        var pending = new Pending(attempt, new CompletableFuture<>());
        if (maxBatch == 1) {
            send(List.of(pending));
        } else {
            SaleSlice slice = attempt.slice();
            if (joinOrOpen(slice, pending)) {
                sendUntilDrained(slice, List.of(pending));
            }
        }
        return await(pending.reply());
    }

    public Figures figures() {
        return new Figures(calls.get(), attempts.get(), largestBatch.get());
    }

    /** True when no call of the slice is in flight: the caller sends its attempt now; else it waits in the queue. */
    private boolean joinOrOpen(SaleSlice slice, Pending pending) {
        boolean[] opened = {false};
        inFlight.compute(slice, (key, waiting) -> {
            if (waiting == null) {
                opened[0] = true;
                return new ArrayDeque<>();
            }
            waiting.add(pending);
            return waiting;
        });
        return opened[0];
    }

    /** The next batch of the slice, or null (and the slice no longer in flight) when none waits. */
    private List<Pending> nextBatch(SaleSlice slice) {
        List<Pending> batch = new ArrayList<>();
        inFlight.computeIfPresent(slice, (key, waiting) -> {
            while (batch.size() < maxBatch && !waiting.isEmpty()) {
                Pending next = waiting.peek();
                if (next.reply().isDone()) {
                    waiting.poll();
                } else if (batch.isEmpty() || batch.getFirst().attempt().sharesCallWith(next.attempt())) {
                    batch.add(waiting.poll());
                } else {
                    break; // another header: the next call's first attempt, so arrival order holds
                }
            }
            return batch.isEmpty() ? null : waiting;
        });
        return batch.isEmpty() ? null : batch;
    }

    /**
     * Sends the batch and, as each call ends, the attempts that queued meanwhile. A call that fails before it leaves
     * (no connection) ends at once: the loop, not a chain of callbacks, goes on with the next batch.
     */
    private void sendUntilDrained(SaleSlice slice, List<Pending> first) {
        for (List<Pending> batch = first; batch != null; batch = nextBatch(slice)) {
            CompletableFuture<List<Object>> call = send(batch);
            if (!call.isDone()) {
                call.whenComplete((replies, failure) -> {
                    List<Pending> next = nextBatch(slice);
                    if (next != null) {
                        sendUntilDrained(slice, next);
                    }
                });
                return;
            }
        }
    }

    /** Starts the call of a batch; its end completes every attempt's reply, the returned future after them. */
    private CompletableFuture<List<Object>> send(List<Pending> batch) {
        List<ReserveScriptCall.Attempt> sent = batch.stream().map(Pending::attempt).toList();
        CompletableFuture<List<Object>> call;
        try {
            call = script.start(ReserveScriptCall.keys(sent), ReserveScriptCall.arguments(sent))
                    .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RuntimeException failedBeforeLeaving) {
            call = CompletableFuture.failedFuture(failedBeforeLeaving);
        }
        // The call counted last: a reader that sees it sees its batch's attempts and size too.
        attempts.addAndGet(batch.size());
        largestBatch.accumulate(batch.size());
        calls.incrementAndGet();
        return call.whenComplete((replies, failure) -> deliver(batch, replies, failure));
    }

    private static void deliver(List<Pending> batch, List<Object> replies, Throwable failure) {
        if (failure == null && (replies == null || replies.size() != batch.size())) {
            failure = new IllegalStateException("reserve.lua answered " + replies + " to " + batch.size()
                    + " attempts");
        }
        for (int i = 0; i < batch.size(); i++) {
            CompletableFuture<List<Object>> reply = batch.get(i).reply();
            if (failure != null) {
                reply.completeExceptionally(failure);
                continue;
            }
            try {
                reply.complete(ReserveScriptCall.reply(replies, i));
            } catch (RuntimeException malformed) {
                reply.completeExceptionally(malformed);
            }
        }
    }

    /** The reply, or the failure as the synchronous API throws it: a timeout, an interruption, Redis's error. */
    private List<Object> await(CompletableFuture<List<Object>> reply) {
        try {
            return reply.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException late) {
            // Left out of a call not sent yet; one already sent may still reserve, as a timed-out command may.
            reply.cancel(false);
            throw ExceptionFactory.createTimeoutException(timeout);
        } catch (InterruptedException interrupted) {
            reply.cancel(false);
            Thread.currentThread().interrupt();
            throw new RedisCommandInterruptedException(interrupted);
        } catch (ExecutionException failed) {
            throw Exceptions.bubble(failed.getCause());
        }
    }
}
