package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RedisKeysTest {

    private static final ActivityId ACTIVITY = new ActivityId("sale-7");

    @Test
    void everyKeyOfAnActivityCarriesItsHashTagFirstSoAllShareOneClusterSlot() {
        List<String> keys = List.of(RedisKeys.meta(ACTIVITY), RedisKeys.stock(ACTIVITY), RedisKeys.holdings(ACTIVITY),
                RedisKeys.reservations(ACTIVITY), RedisKeys.requests(ACTIVITY), RedisKeys.outbox(ACTIVITY),
                RedisKeys.inFlight(ACTIVITY));

        assertThat(keys).containsExactly("fs:{sale-7}:meta", "fs:{sale-7}:stock", "fs:{sale-7}:holdings",
                "fs:{sale-7}:reservations", "fs:{sale-7}:requests", "fs:{sale-7}:outbox", "fs:{sale-7}:inflight");
        // Redis Cluster hashes the text between the first '{' and the next '}'.
        assertThat(keys).allSatisfy(key -> assertThat(key.substring(key.indexOf('{') + 1, key.indexOf('}')))
                .isEqualTo("sale-7"));
    }

    @Test
    void theOutboxRegistrySpansActivitiesSoItCarriesNoHashTag() {
        assertThat(RedisKeys.outboxActivities()).isEqualTo("fs:outbox:activities").doesNotContain("{");
    }

    @Test
    void fieldsJoinTheirPartsWithAColonThatNoIdContains() {
        assertThat(RedisKeys.holdingField(new BuyerId("alice"), new SkuId("sku-1"))).isEqualTo("alice:sku-1");
        assertThat(RedisKeys.requestField(new BuyerId("alice"), new RequestId("r_1"))).isEqualTo("alice:r_1");
        assertThat(RedisKeys.stockField(new SkuId("sku-1"), "reserved")).isEqualTo("sku-1:reserved");
        assertThat(RedisKeys.segmentField(new SkuId("sku-1"), 3)).isEqualTo("sku-1:avail:3");
    }

    @Test
    void aRequestEntryHoldsOnlyTheTokenOrNothingWhenTheTokenIsTheRequestAndReadsBackTheWholeIdExactly() {
        ReservationId keyed = ReservationId.of(ACTIVITY, "01JTOKEN");
        ReservationId unkeyed = ReservationId.of(ACTIVITY, "7f3a");

        assertThat(RedisKeys.requestValue(keyed, new RequestId("k-1"))).isEqualTo("01JTOKEN");
        assertThat(RedisKeys.requestValue(unkeyed, new RequestId("7f3a"))).isEmpty();
        assertThat(RedisKeys.requestedReservation(ACTIVITY, new RequestId("k-1"), "01JTOKEN")).isEqualTo(keyed);
        assertThat(RedisKeys.requestedReservation(ACTIVITY, new RequestId("7f3a"), "")).isEqualTo(unkeyed);
        assertThat(RedisKeys.requestedReservation(ACTIVITY, new RequestId("k-1"), keyed.value()))
                .as("a whole id, as written before ADR 71").isEqualTo(keyed);
    }
}
