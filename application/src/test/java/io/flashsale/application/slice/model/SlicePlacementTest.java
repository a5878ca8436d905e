package io.flashsale.application.slice.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SlicePlacementTest {

    @Test
    void slicesAreSpreadWhenOnAsManyMastersAsTheyCanBe() {
        assertThat(new SlicePlacement(3, 3, 3).spread()).isTrue();
        assertThat(new SlicePlacement(6, 3, 3).spread()).as("more slices than masters").isTrue();
        assertThat(new SlicePlacement(2, 2, 3).spread()).as("fewer slices than masters").isTrue();
        assertThat(new SlicePlacement(3, 1, 1).spread()).as("a single server").isTrue();
        assertThat(new SlicePlacement(1, 1, 3).spread()).as("a sale of one slice").isTrue();
    }

    @Test
    void slicesSharingAMasterWhileAnotherIsFreeAreNotSpread() {
        assertThat(new SlicePlacement(3, 2, 3).spread()).isFalse();
        assertThat(new SlicePlacement(6, 1, 3).spread()).isFalse();
    }

    @Test
    void aPlacementOnMoreMastersThanSlicesOrTheStoreHasIsNoPlacement() {
        assertThatThrownBy(() -> new SlicePlacement(2, 3, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SlicePlacement(3, 3, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SlicePlacement(3, 0, 3)).isInstanceOf(IllegalArgumentException.class);
    }
}
