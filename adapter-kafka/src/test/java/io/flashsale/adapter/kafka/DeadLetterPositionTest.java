package io.flashsale.adapter.kafka;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class DeadLetterPositionTest {

    @Test
    void givenAPosition_whenWrittenAndParsed_thenItIsTheSamePosition() {
        var position = new DeadLetterPosition(2, 1_234_567_890_123L);

        assertThat(position.toString()).isEqualTo("2-1234567890123");
        assertThat(DeadLetterPosition.parse(position.toString())).contains(position);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"2", "-1-5", "2-", "-5", "a-1", "1-b", "1-2-3", "1 -2", "9999999999-1", "1-9999999999999999999"})
    void givenSomethingElse_whenParsed_thenThereIsNoPosition(String id) {
        assertThat(DeadLetterPosition.parse(id)).isEmpty();
    }
}
