package io.flashsale.chaos;

import io.flashsale.chaos.history.Entry;
import io.flashsale.chaos.history.History;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class KnownGapsTest {

    @Test
    void givenRedisHoldingMoreThanMySqlSold_whenJudged_thenItWithholdsAndIsCovered() {
        assertThat(KnownGaps.redisWithholds("sku-0: Redis HotLedger[total=18, available=16, reserved=1, sold=1], "
                + "MySQL says HotLedger[total=18, available=17, reserved=0, sold=1]")).isTrue();
        assertThat(KnownGaps.redisWithholds("sku-1: Redis HotLedger[total=12, available=0, reserved=1, sold=11], "
                + "MySQL says HotLedger[total=11, available=0, reserved=0, sold=11]")).isTrue();
        assertThat(KnownGaps.redisWithholds("sku-0: Redis HotLedger[total=23, available=21, reserved=0, sold=2], "
                + "MySQL says HotLedger[total=23, available=23, reserved=0, sold=0]")).isTrue();
    }

    @Test
    void givenRedisOfferingMoreThanMySqlHasLeft_whenJudged_thenItIsNeverCovered() {
        assertThat(KnownGaps.redisWithholds("sku-0: Redis HotLedger[total=18, available=18, reserved=0, sold=0], "
                + "MySQL says HotLedger[total=18, available=17, reserved=0, sold=1]")).isFalse();
        assertThat(KnownGaps.redisWithholds("sku-0: Redis HotLedger[total=18, available=17, reserved=0, sold=0], "
                + "MySQL says HotLedger[total=18, available=17, reserved=0, sold=1]")).isFalse();
        assertThat(KnownGaps.redisWithholds("sku-0 is not in MySQL")).isFalse();
    }

    @Test
    void givenARequestAnsweredWithTwoIdsThroughTwoInstances_whenJudged_thenOnlyThatPairIsTheResidualOfDefect5() {
        History twoInstances = history(answer(1, 1, "sale.a"), answer(2, 0, "sale.b"));
        History oneInstance = history(answer(1, 1, "sale.a"), answer(2, 1, "sale.b"));
        History oneId = history(answer(1, 1, "sale.a"), answer(2, 0, "sale.a"));

        assertThat(KnownGaps.answeredThroughTwoInstances(twoInstances, List.of(answer(2, 0, "sale.b")))).isTrue();
        assertThat(KnownGaps.answeredThroughTwoInstances(oneInstance, List.of(answer(2, 1, "sale.b")))).isFalse();
        assertThat(KnownGaps.answeredThroughTwoInstances(oneId, List.of(answer(2, 0, "sale.a")))).isFalse();
    }

    private static Entry answer(long id, int instance, String reservationId) {
        return new Entry(id, "reserve", instance, "buyer-5", "r-1", reservationId, "{}", id * 100, id * 100 + 50, 202,
                null, "{}");
    }

    private static History history(Entry... entries) {
        History history = new History(System.nanoTime());
        for (Entry entry : entries) {
            history.add(entry);
        }
        return history;
    }
}
