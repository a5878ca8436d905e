package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.Activity;

import java.util.List;

/** The operator's list of sales: a read that may trail the latest writes by moments. */
public interface UnarchivedActivitiesPort {

    /** At most {@code limit} activities not archived, latest start first (the operator's list: upcoming and live sales on top). */
    List<Activity> findUnarchived(int limit);
}
