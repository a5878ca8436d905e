package io.flashsale.application.sale.port.in;

import io.flashsale.application.sale.model.ListedActivity;

import java.util.List;

/** The sales an operator watches: every sale not archived yet, latest start first, at most {@link #MAX_LISTED}. */
public interface ListActivitiesUseCase {

    /** Enough for a sale day; the archive schedule keeps the unarchived set small. */
    int MAX_LISTED = 100;

    List<ListedActivity> unarchived();
}
