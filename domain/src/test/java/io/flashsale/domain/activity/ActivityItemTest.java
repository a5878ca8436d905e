package io.flashsale.domain.activity;

import io.flashsale.domain.shared.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ActivityItemTest {

    private static final SkuId SKU = new SkuId("a");

    private static void assertRefused(Runnable construction, String field) {
        assertThatThrownBy(construction::run)
                .isInstanceOfSatisfying(InvalidValueException.class, refused -> assertThat(refused.field()).isEqualTo(field));
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 1_000_000_000L})
    void givenStockFromZeroToOneBillion_thenAccepted(long stock) {
        assertThat(new ActivityItem(SKU, stock, null, 1).stock()).isEqualTo(stock);
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, 1_000_000_001L, Long.MAX_VALUE, Long.MIN_VALUE})
    void givenStockOutsideZeroToOneBillion_thenRefused(long stock) {
        assertRefused(() -> new ActivityItem(SKU, stock, null, 1), "stock");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 1000})
    void givenLimitOverrideFromOneToAThousand_thenAccepted(int limit) {
        assertThat(new ActivityItem(SKU, 1, limit, 1).perUserLimit()).isEqualTo(limit);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 1001})
    void givenLimitOverrideOutsideOneToAThousand_thenRefused(int limit) {
        assertRefused(() -> new ActivityItem(SKU, 1, limit, 1), "perUserLimit");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 16})
    void givenOneToSixteenSegments_thenAccepted(int segments) {
        assertThat(new ActivityItem(SKU, 1, null, segments).segments()).isEqualTo(segments);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 17})
    void givenSegmentsOutsideOneToSixteen_thenRefused(int segments) {
        assertRefused(() -> new ActivityItem(SKU, 1, null, segments), "segments");
    }

    @Test
    void givenNoSku_thenRefused() {
        assertRefused(() -> new ActivityItem(null, 1, null, 1), "skuId");
    }

    @Test
    void ofMakesAnUnsegmentedItemWithoutOverride() {
        assertThat(ActivityItem.of("a", 7)).isEqualTo(new ActivityItem(SKU, 7, null, 1));
    }
}
