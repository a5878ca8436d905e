package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.slice.TransferState;
import org.junit.jupiter.api.Test;
import org.mapstruct.factory.Mappers;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StockTransferRowMapperTest {

    private final StockTransferRowMapper mapper = Mappers.getMapper(StockTransferRowMapper.class);

    @Test
    void givenATakenTransfer_whenMappedToARowAndBack_thenTheSameTransferReturnsWithItsTimeInMilliseconds() {
        StockTransfer taken = StockTransfer.requested(7, new ActivityId("sale-1"), new SkuId("a"), 2, 0, 10,
                Instant.parse("2031-02-03T04:05:06.789999Z")).taken(6);

        StockTransferRow row = mapper.toRow(taken);

        assertThat(row).isEqualTo(new StockTransferRow(7, "sale-1", "a", 2, 0, 10, "TAKEN", 6,
                Instant.parse("2031-02-03T04:05:06.789Z")));
        assertThat(mapper.toTransfer(row)).isEqualTo(new StockTransfer(7, new ActivityId("sale-1"), new SkuId("a"), 2,
                0, 10, TransferState.TAKEN, 6, Instant.parse("2031-02-03T04:05:06.789Z")));
    }

    @Test
    void givenARowThatMovedUnitsWhileStillRequested_whenMappedToTheDomain_thenTheDomainRefusesIt() {
        StockTransferRow row = new StockTransferRow(7, "sale-1", "a", 2, 0, 10, "REQUESTED", 3,
                Instant.parse("2031-02-03T04:05:06.789Z"));

        assertThatThrownBy(() -> mapper.toTransfer(row)).isInstanceOf(IllegalArgumentException.class);
    }
}
