package io.flashsale.acceptance.api;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Many clients that wait at one gate and then all fire at once. At most {@link #MAX_IN_FLIGHT} calls
 * are in flight together (more would only queue in the kernel's accept backlog); each client sends
 * its share one after another, so a crowd of 2000 still arrives as one burst.
 */
final class Crowd {

    static final int MAX_IN_FLIGHT = 200;
    private static final long PATIENCE_SECONDS = 120;
    /** Sends of one call at most while it is told to try again. */
    private static final int MAX_TRIES = 100;

    private final FlashsaleApi api;

    Crowd(FlashsaleApi api) {
        this.api = api;
    }

    List<ApiAnswer> send(List<ApiCall> calls) {
        int clients = Math.min(calls.size(), MAX_IN_FLIGHT);
        ApiAnswer[] answers = new ApiAnswer[calls.size()];
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch gate = new CountDownLatch(1);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> running = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                int first = client;
                running.add(executor.submit(() -> {
                    ready.countDown();
                    gate.await();
                    // Client k sends calls k, k + clients, ...: a buyer's calls go out from different clients.
                    for (int i = first; i < calls.size(); i += clients) {
                        answers[i] = untilDecided(calls.get(i));
                    }
                    return null;
                }));
            }
            try {
                awaitAll(ready);
                gate.countDown();
                for (Future<?> client : running) {
                    client.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
                }
            } finally {
                // After a failure the other clients must not keep the scenario waiting.
                executor.shutdownNow();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("a client of the crowd failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the crowd did not get its answers within " + PATIENCE_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the crowd was waiting", e);
        }
        return Arrays.asList(answers);
    }

    /**
     * The call's answer; one that says units are on their way (503 TRY_AGAIN, a sale in slices) is sent again after
     * the wait it names, as a buyer's client does, so each call ends decided.
     */
    private ApiAnswer untilDecided(ApiCall call) throws InterruptedException {
        ApiAnswer answer = api.send(call);
        for (int tries = 1; answer.status() == 503 && "TRY_AGAIN".equals(answer.code()) && tries < MAX_TRIES;
             tries++) {
            Thread.sleep(answer.json().path("retryAfterMillis").asLong());
            answer = api.send(call);
        }
        return answer;
    }

    private static void awaitAll(CountDownLatch ready) throws InterruptedException {
        if (!ready.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the crowd's clients did not get ready");
        }
    }
}
