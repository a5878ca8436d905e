package io.flashsale.domain.reservation;

import io.flashsale.domain.shared.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PurchaseLimitTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 999, 1000})
    void givenLimitFromOneToAThousand_thenAccepted(int max) {
        assertThat(new PurchaseLimit(max).max()).isEqualTo(max);
    }

    @ParameterizedTest
    @ValueSource(ints = {Integer.MIN_VALUE, -1, 0, 1001, Integer.MAX_VALUE})
    void givenLimitOutsideOneToAThousand_thenRefusedAsPerUserLimit(int max) {
        assertThatThrownBy(() -> new PurchaseLimit(max))
                .isInstanceOfSatisfying(InvalidValueException.class,
                        refused -> assertThat(refused.field()).isEqualTo("perUserLimit"));
    }

    @Test
    void defaultLimitIsOne() {
        assertThat(PurchaseLimit.ONE.max()).isEqualTo(1);
    }

    @Test
    void givenLimitOfThree_thenHoldingsPlusQuantityUpToThreeAreAllowed() {
        PurchaseLimit limit = new PurchaseLimit(3);

        assertThat(limit.allows(0, 3)).isTrue();
        assertThat(limit.allows(2, 1)).isTrue();
        assertThat(limit.allows(2, 2)).isFalse();
        assertThat(limit.allows(3, 1)).isFalse();
        assertThat(limit.allows(0, 4)).isFalse();
    }

    @Test
    void givenLimitOfOne_thenOnlyTheFirstUnitIsAllowed() {
        assertThat(PurchaseLimit.ONE.allows(0, 1)).isTrue();
        assertThat(PurchaseLimit.ONE.allows(1, 1)).isFalse();
    }
}
