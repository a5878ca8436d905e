package io.flashsale.adapter.scheduling;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RelayNamesTest {

    @Test
    void givenAHost_whenNamed_thenHostPidAndSixHexDigits() {
        assertThat(RelayNames.of("shop-7", 12345, 0x9f2c1a)).isEqualTo("shop-7-12345-9f2c1a");
    }

    @Test
    void givenAnOddOrMissingHost_whenNamed_thenOnlySafeCharactersAndABoundedLength() {
        assertThat(RelayNames.of("a b:c/d", 1, 1)).isEqualTo("a_b_c_d-1-000001");
        assertThat(RelayNames.of("", 1, 1)).isEqualTo("host-1-000001");
        assertThat(RelayNames.of(null, 1, 1)).isEqualTo("host-1-000001");
        assertThat(RelayNames.of("h".repeat(100), 1, 1)).isEqualTo("h".repeat(40) + "-1-000001");
    }

    @Test
    void givenTwoStartsOfOneProcess_whenNamed_thenTheNamesDiffer() {
        assertThat(RelayNames.forThisInstance()).isNotEqualTo(RelayNames.forThisInstance())
                .matches(".+-" + ProcessHandle.current().pid() + "-[0-9a-f]{6}");
    }
}
