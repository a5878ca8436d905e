package io.flashsale.adapter.redis.internal;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationLine;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReservationLinesTest {

    @Test
    void linesTravelAsSkuColonQuantityInRequestOrderAndComeBackEqual() {
        var lines = List.of(new ReservationLine(new SkuId("z-9"), 2), new ReservationLine(new SkuId("1e3"), 1000));

        String encoded = ReservationLines.encode(lines);

        assertThat(encoded).isEqualTo("z-9:2,1e3:1000");
        assertThat(ReservationLines.decode(encoded)).isEqualTo(lines);
    }

    @Test
    void aLineWithoutQuantityIsACorruptRecord() {
        assertThatThrownBy(() -> ReservationLines.decode("a:1,b")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a:1,b");
    }
}
