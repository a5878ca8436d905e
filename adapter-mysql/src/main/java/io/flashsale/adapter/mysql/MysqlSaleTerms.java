package io.flashsale.adapter.mysql;

import io.flashsale.application.sale.port.out.SaleTermsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.shared.InvalidValueException;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** A sale's pause and window in its {@code activity} row (ADR 79); each change is one conditional UPDATE. */
public class MysqlSaleTerms implements SaleTermsPort {

    private final ActivityDao dao;

    MysqlSaleTerms(ActivityDao dao) {
        this.dao = dao;
    }

    @Override
    public boolean recordPaused(ActivityId activityId, boolean paused) {
        return dao.updatePaused(activityId.value(), paused) == 1;
    }

    /** The instants are kept to the millisecond, as the row keeps every window; one that does not fit is refused. */
    @Override
    public boolean recordWindow(ActivityId activityId, Instant fromStartsAt, Instant fromEndsAt, Instant startsAt,
                                Instant endsAt) {
        Instant start = stored(startsAt, "startsAt");
        Instant end = stored(endsAt, "endsAt");
        if (!end.isAfter(start)) {
            throw new InvalidValueException("endsAt", "must be at least one millisecond after startsAt");
        }
        return dao.updateWindow(activityId.value(), stored(fromStartsAt, "startsAt"), stored(fromEndsAt, "endsAt"),
                start, end) == 1;
    }

    private static Instant stored(Instant instant, String field) {
        MysqlActivityRepository.requireDatetimeRange(instant, field);
        return instant.truncatedTo(ChronoUnit.MILLIS);
    }
}
