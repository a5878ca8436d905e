package io.flashsale.bootstrap.pipeline;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.stock.SkuStock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sale in slices sold out through the whole service (ADR 109): every slice warmed up with its share, a crowd whose
 * home slices run dry unevenly (so units are borrowed between slices while it buys), every accepted reservation an
 * order exactly once through each slice's outbox, the relay, Kafka and the order consumer, and each slice's hot store
 * told of its orders.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SlicedSalePipelineIT extends PipelineTestBase {

    private static final int SLICES = 3;
    private static final long UNITS = 60;
    private static final int LIMIT = 2;

    @Test
    void givenASaleInThreeSlices_whenACrowdBuysItOut_thenEveryUnitIsSoldOnceNobodyPassesTheLimitAndEachIsOneOrder()
            throws Exception {
        String activityId = slicedSale(UNITS, LIMIT, SLICES);
        assertThat(redisLedger(activityId).ledger().available()).as("the slices' shares summed").isEqualTo(UNITS);
        Map<String, String> accepted = new ConcurrentHashMap<>();
        Map<String, Integer> refusals = new ConcurrentHashMap<>();
        List<Future<?>> crowd = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int b = 0; b < 50; b++) {
                String buyer = buyer(b);
                crowd.add(threads.submit(() -> {
                    for (int attempt = 0; attempt < 3; attempt++) {
                        ServiceClient.Reply answer = reserveUntilDecided(activityId, buyer, "k" + attempt);
                        if (answer.status() == 202) {
                            accepted.put(answer.json().path("reservationId").asString(), buyer);
                        } else {
                            refusals.merge(answer.json().path("code").asString(), 1, Integer::sum);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> buyer : crowd) {
                buyer.get(90, TimeUnit.SECONDS);
            }
        }

        assertThat(accepted).as("every unit once").hasSize((int) UNITS);
        assertThat(accepted.keySet()).allSatisfy(id ->
                assertThat(new ReservationId(id).slice().slices().count()).isEqualTo(SLICES));
        assertThat(accepted.values().stream().collect(Collectors.groupingBy(buyer -> buyer, Collectors.counting())))
                .as("reservations per buyer").allSatisfy((buyer, held) -> assertThat(held).isLessThanOrEqualTo(LIMIT));
        assertThat(refusals.keySet()).as("the only refusals").isSubsetOf("SOLD_OUT", "LIMIT_EXCEEDED");
        awaitExactlyOneOrderEach(activityId, UNITS, accepted);
        SkuStock summed = stock.stock(new ActivityId(activityId)).orElseThrow().getFirst();
        assertThat(summed.ledger().sold()).as("sold over the slices").isEqualTo(UNITS);
    }
}
