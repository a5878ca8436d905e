package io.flashsale.adapter.mysql;

import org.apache.ibatis.reflection.ReflectionException;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RowObjectFactoryTest {

    private final RowObjectFactory factory = new RowObjectFactory();

    @Test
    void givenAPackagePrivateRowRecord_whenBuiltTwice_thenEachIsTheRowOfItsValues() {
        List<Class<?>> types = List.of(String.class, String.class, Instant.class, Instant.class);
        Instant at = Instant.parse("2030-01-01T00:00:00Z");

        SettlementRow first = factory.create(SettlementRow.class, types, List.of("r1", "ORDERED", at, at));
        SettlementRow second = factory.create(SettlementRow.class, types, Arrays.asList("r2", "FAILED", at,
                null));

        assertThat(first).isEqualTo(new SettlementRow("r1", "ORDERED", at, at));
        assertThat(second).isEqualTo(new SettlementRow("r2", "FAILED", at, null));
    }

    @Test
    void givenWhatIsNotARecordBuiltWithArguments_thenMyBatisOwnFactoryBuildsIt() {
        assertThat(factory.create(List.class)).isInstanceOf(ArrayList.class);
    }

    @Test
    void givenArgumentsNoConstructorTakes_thenAReflectionExceptionNamesTheRecord() {
        assertThatThrownBy(() -> factory.create(SettlementRow.class, List.of(String.class), List.of("r1")))
                .isInstanceOf(ReflectionException.class).hasMessageContaining("SettlementRow");
    }
}
