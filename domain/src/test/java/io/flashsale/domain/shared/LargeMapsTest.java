package io.flashsale.domain.shared;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LargeMapsTest {

    @Test
    void aCopyHasTheSameEntriesAndDoesNotFollowTheOriginal() {
        Map<String, Long> original = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            original.put("buyer-" + i, (long) i);
        }

        Map<String, Long> copy = LargeMaps.copyOf(original);
        original.put("buyer-late", 1L);

        assertThat(copy).hasSize(10_000).containsEntry("buyer-9999", 9_999L).doesNotContainKey("buyer-late");
        assertThat(copy).isEqualTo(Map.copyOf(copy));
    }

    @Test
    void aCopyCannotBeChanged() {
        Map<String, Long> copy = LargeMaps.copyOf(Map.of("a", 1L));

        assertThatThrownBy(() -> copy.put("b", 2L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(copy::clear).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void nullKeysAndValuesAreRefusedAsMapCopyOfRefusesThem() {
        Map<String, Long> nullValue = new HashMap<>();
        nullValue.put("a", null);
        Map<String, Long> nullKey = new HashMap<>();
        nullKey.put(null, 1L);

        assertThatThrownBy(() -> LargeMaps.copyOf(nullValue)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> LargeMaps.copyOf(nullKey)).isInstanceOf(NullPointerException.class);
    }
}
