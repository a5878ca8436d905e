package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WarmUpScriptCallTest {

    private static final Instant STARTS = Instant.parse("2030-05-01T10:00:00.5Z");
    private static final List<ActivityItem> ITEMS = List.of(ActivityItem.of("a", 100),
            new ActivityItem(new SkuId("b"), 8, 1, 2));

    @Test
    void aSaleOfOneSliceIsLoadedWhole_onTheActivitysKeys_withTheCountOne() {
        Activity sale = sale(SaleSlices.ONE);
        AcceptedRequestsFilter.Size size = AcceptedRequestsFilter.Size.forUnits(108);

        assertThat(WarmUpScriptCall.slicesOf(sale)).containsExactly(new SaleSlice(sale.id(), 0, SaleSlices.ONE));
        assertThat(WarmUpScriptCall.keys(sale)).containsExactly(RedisKeys.meta(sale.id()), RedisKeys.stock(sale.id()),
                RedisKeys.requests(sale.id()), RedisKeys.acceptedRequests(sale.id()),
                RedisKeys.requestsDrop(sale.id()));
        assertThat(WarmUpScriptCall.arguments(sale)).containsExactly(
                Long.toString(STARTS.getEpochSecond()), "500000000", Long.toString(STARTS.getEpochSecond() + 3600),
                "500000000", "3", "a,b", Long.toString(size.bits()), Integer.toString(size.hashes()), "0", "1",
                "a", "100", "3", "1", "b", "8", "1", "2");
    }

    @Test
    void eachSliceOfASaleInSlicesIsLoadedOnItsOwnKeys_withItsShare_andAFilterSizedFromIt() {
        Activity sale = sale(new SaleSlices(3));
        SaleSlice two = WarmUpScriptCall.slicesOf(sale).get(2);
        AcceptedRequestsFilter.Size size = AcceptedRequestsFilter.Size.forUnits(33 + 2);

        assertThat(WarmUpScriptCall.keys(two)).allSatisfy(key -> assertThat(key)
                .contains("{" + RedisKeys.tag(two) + "}"));
        String[] arguments = WarmUpScriptCall.arguments(sale, two);
        assertThat(Arrays.copyOfRange(arguments, 6, arguments.length)).containsExactly(
                Long.toString(size.bits()), Integer.toString(size.hashes()), "0", "3",
                "a", "33", "3", "1", "b", "2", "1", "2");
        assertThat(WarmUpScriptCall.arguments(sale, WarmUpScriptCall.slicesOf(sale).getFirst()))
                .as("the first slices take the remainder").endsWith("a", "34", "3", "1", "b", "3", "1", "2");
    }

    @Test
    void aSliceOfAnotherSaleOrCountIsRefused() {
        Activity sale = sale(new SaleSlices(3));

        assertThatThrownBy(() -> WarmUpScriptCall.arguments(sale, new SaleSlice(sale.id(), 1, new SaleSlices(2))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> WarmUpScriptCall.arguments(sale, new SaleSlice(new ActivityId("other"), 1,
                new SaleSlices(3)))).isInstanceOf(IllegalArgumentException.class);
    }

    private static Activity sale(SaleSlices slices) {
        return new Activity(new ActivityId("warm"), "warm", STARTS, STARTS.plusSeconds(3600), new PurchaseLimit(3),
                Duration.ofMinutes(15), ITEMS, false, slices);
    }
}
