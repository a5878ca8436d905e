package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.slice.SaleSlices;
import org.mapstruct.Mapper;
import org.mapstruct.Mapping;
import org.mapstruct.Named;
import org.mapstruct.ReportingPolicy;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows to domain and back. Domain records are built through their canonical constructors, so every row
 * read passes the domain's own validation; the value-object factories below name each conversion.
 */
@Mapper(unmappedTargetPolicy = ReportingPolicy.ERROR)
interface ActivityRowMapper {

    @Mapping(target = "paymentTimeout", source = "row.paymentTimeoutSeconds")
    @Mapping(target = "items", source = "items")
    Activity toActivity(ActivityRow row, List<ActivityItemRow> items);

    ActivityItem toItem(ActivityItemRow row);

    @Mapping(target = "startsAt", qualifiedByName = "storedPrecision")
    @Mapping(target = "endsAt", qualifiedByName = "storedPrecision")
    @Mapping(target = "paymentTimeoutSeconds", source = "paymentTimeout")
    ActivityRow toRow(Activity activity);

    @Mapping(target = "activityId", source = "activityId")
    @Mapping(target = "itemIndex", source = "itemIndex")
    ActivityItemRow toItemRow(ActivityItem item, String activityId, int itemIndex);

    /** The item rows in the activity's order, numbered from 0. */
    default List<ActivityItemRow> toItemRows(Activity activity) {
        List<ActivityItemRow> rows = new ArrayList<>(activity.items().size());
        for (ActivityItem item : activity.items()) {
            rows.add(toItemRow(item, activity.id().value(), rows.size()));
        }
        return rows;
    }

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

    default PurchaseLimit purchaseLimit(int max) {
        return new PurchaseLimit(max);
    }

    default int purchaseLimitMax(PurchaseLimit limit) {
        return limit.max();
    }

    default SaleSlices saleSlices(int count) {
        return new SaleSlices(count);
    }

    default int sliceCount(SaleSlices slices) {
        return slices.count();
    }

    default Duration paymentTimeout(long seconds) {
        return Duration.ofSeconds(seconds);
    }

    /** The column counts seconds: a fraction would be lost silently, so it is refused. */
    default long paymentTimeoutSeconds(Duration timeout) {
        if (timeout.toNanosPart() != 0) {
            throw new InvalidValueException("paymentTimeoutSeconds", "must be a whole number of seconds");
        }
        return timeout.toSeconds();
    }

    /** DATETIME(3) keeps milliseconds: truncate here so the server never rounds. */
    @Named("storedPrecision")
    default Instant storedPrecision(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
