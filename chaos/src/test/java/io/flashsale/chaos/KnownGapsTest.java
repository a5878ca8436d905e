package io.flashsale.chaos;

import org.junit.jupiter.api.Test;

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
}
