package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A sale as the database of record holds it.
 *
 * @param ledgersOnRecord once the sale is archived, its ledgers as the database keeps them; empty while it is not
 */
public record ActivityRecord(Activity activity, Optional<List<SkuStock>> ledgersOnRecord) {

    public ActivityRecord {
        Objects.requireNonNull(activity, "activity");
        ledgersOnRecord = ledgersOnRecord.map(List::copyOf);
    }

    /** Read from the repository: the sale, then whether it is archived, then (only if so) its recorded ledgers. */
    public static <S extends ActivityLookupPort & ActivityArchivesPort & RecordedLedgersPort> Optional<ActivityRecord>
            read(S activities, ActivityId activityId) {
        return activities.findById(activityId).map(activity -> new ActivityRecord(activity,
                activities.archivedAt(activityId).isPresent() ? activities.recordedStock(activityId)
                        : Optional.empty()));
    }
}
