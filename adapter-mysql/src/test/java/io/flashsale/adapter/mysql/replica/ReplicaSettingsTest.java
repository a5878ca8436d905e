package io.flashsale.adapter.mysql.replica;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplicaSettingsTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    @Test
    void givenSettings_whenPrinted_thenThePasswordIsLeftOut() {
        ReplicaSettings settings = new ReplicaSettings("jdbc:mysql://replica/flashsale", "reader", "s3cret-Pw",
                SECOND, SECOND, SECOND);

        assertThat(settings.toString()).contains("jdbc:mysql://replica/flashsale", "reader").doesNotContain("s3cret-Pw");
    }

    @Test
    void givenNoUrlOrABoundThatIsNotPositive_thenTheSettingsAreRefused() {
        assertThatThrownBy(() -> new ReplicaSettings(" ", "reader", "", SECOND, SECOND, SECOND))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReplicaSettings("jdbc:mysql://replica/flashsale", "reader", "", Duration.ZERO,
                SECOND, SECOND)).hasMessageContaining("max-lag");
        assertThatThrownBy(() -> new ReplicaSettings("jdbc:mysql://replica/flashsale", "reader", "", SECOND,
                SECOND, Duration.ofMillis(-1))).hasMessageContaining("catch-up-wait");
    }
}
