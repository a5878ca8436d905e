package io.flashsale.bootstrap.pipeline;

import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The false sold-out window of a sale in slices (ADR 109, issue target: at most 200 ms): a crowd whose home slices are
 * lopsided (most buyers at home in slice 0, which runs dry while slices 1 and 2 still hold units) buys a sale out
 * through the service. A sold-out answer is surely false when an attempt sent after it was answered still got a unit:
 * the longest such gap is the window measured, a lower bound of the time the sale said sold out while units remained.
 * Every unit is sold exactly once meanwhile.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class FalseSoldOutWindowIT extends PipelineTestBase {

    private static final int SLICES = 3;
    /** 20 units a slice. */
    private static final long UNITS = 60;
    /** Buyers at home in slice 0, 1 and 2: slice 0's run it dry at once and borrow the others' units. */
    private static final int[] BUYERS_AT_HOME = {96, 12, 12};
    private static final int CONCURRENT = 32;
    private static final long WINDOW_MILLIS = 200;

    /** One answer as the buyer saw it. */
    private record Answer(long sentAt, long answeredAt, int status, String code) {

        boolean accepted() {
            return status == 202;
        }

        boolean soldOut() {
            return status == 409 && "SOLD_OUT".equals(code);
        }
    }

    @RepeatedTest(3)
    void givenLopsidedHomeSlices_whenACrowdBuysASaleInSlicesOut_thenEveryUnitIsSoldAndNoSoldOutIsFalseForLong()
            throws Exception {
        String id = slicedSale(UNITS, 1, SLICES);
        Queue<Answer> answers = new ConcurrentLinkedQueue<>();
        Semaphore inFlight = new Semaphore(CONCURRENT);
        List<Future<?>> crowd = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (String buyer : lopsidedCrowd(id)) {
                crowd.add(threads.submit(() -> {
                    inFlight.acquire();
                    try {
                        long sentAt = System.nanoTime();
                        ServiceClient.Reply reply = reserveUntilDecided(id, buyer, "k0");
                        answers.add(new Answer(sentAt, System.nanoTime(), reply.status(),
                                reply.json().path("code").asString()));
                    } finally {
                        inFlight.release();
                    }
                    return null;
                }));
            }
            for (Future<?> attempt : crowd) {
                attempt.get(90, TimeUnit.SECONDS);
            }
        }

        assertThat(answers.stream().filter(Answer::accepted).count()).as("every unit once").isEqualTo(UNITS);
        assertThat(answers).as("each answer accepted or sold out").allMatch(answer -> answer.accepted()
                || answer.soldOut());
        long window = TimeUnit.NANOSECONDS.toMillis(longestFalseSoldOut(answers));
        System.out.printf("[false sold-out] %d answers, %d sold out, longest surely false: %d ms%n", answers.size(),
                answers.stream().filter(Answer::soldOut).count(), window);
        assertThat(window).as("the longest a sold-out answer stood while units remained (ms)")
                .isLessThanOrEqualTo(WINDOW_MILLIS);
        assertThat(redisLedger(id).ledger().available()).as("nothing left anywhere").isZero();
    }

    /** For each sold-out answer, how long after it an attempt sent later still got a unit; the longest, or 0. */
    private static long longestFalseSoldOut(Collection<Answer> answers) {
        long longest = 0;
        for (Answer soldOut : answers) {
            if (!soldOut.soldOut()) {
                continue;
            }
            for (Answer later : answers) {
                if (later.accepted() && later.sentAt() > soldOut.answeredAt()) {
                    longest = Math.max(longest, later.sentAt() - soldOut.answeredAt());
                }
            }
        }
        return longest;
    }

    /** Buyers of this sale at home in each slice as {@link #BUYERS_AT_HOME} says, slice 0's first. */
    private static List<String> lopsidedCrowd(String saleId) {
        SaleSlices slices = new SaleSlices(SLICES);
        List<List<String>> byHome = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int b = 0; byHome.stream().mapToInt(List::size).sum() < 120; b++) {
            String buyer = saleId + "-buyer-" + b;
            List<String> home = byHome.get(slices.homeOf(new BuyerId(buyer)));
            if (home.size() < BUYERS_AT_HOME[slices.homeOf(new BuyerId(buyer))]) {
                home.add(buyer);
            }
        }
        List<String> crowd = new ArrayList<>();
        byHome.forEach(crowd::addAll);
        return crowd;
    }
}
