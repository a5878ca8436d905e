package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.slice.TransferState;
import org.mapstruct.Mapper;
import org.mapstruct.Mapping;
import org.mapstruct.Named;
import org.mapstruct.ReportingPolicy;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Stock transfer rows to domain and back. The transfer is rebuilt through its canonical constructor, so a row read
 * passes the domain's own rules (two different slices, moved within units, nothing moved while requested).
 */
@Mapper(unmappedTargetPolicy = ReportingPolicy.ERROR)
interface StockTransferRowMapper {

    /** Written out: MapStruct would take the transfer's {@code taken(long)} step for a property to set. */
    default StockTransfer toTransfer(StockTransferRow row) {
        return new StockTransfer(row.id(), activityId(row.activityId()), skuId(row.skuId()), row.fromSlice(),
                row.toSlice(), row.units(), state(row.state()), row.moved(), row.requestedAt());
    }

    @Mapping(target = "fromSlice", source = "from")
    @Mapping(target = "toSlice", source = "to")
    @Mapping(target = "requestedAt", qualifiedByName = "storedPrecision")
    StockTransferRow toRow(StockTransfer transfer);

    default ActivityId activityId(String value) {
        return new ActivityId(value);
    }

    default String activityIdValue(ActivityId id) {
        return id.value();
    }

    default SkuId skuId(String value) {
        return new SkuId(value);
    }

    default String skuIdValue(SkuId id) {
        return id.value();
    }

    default TransferState state(String name) {
        return TransferState.valueOf(name);
    }

    default String stateName(TransferState state) {
        return state.name();
    }

    /** DATETIME(3) keeps milliseconds: truncate here so the server never rounds. */
    @Named("storedPrecision")
    default Instant storedPrecision(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
