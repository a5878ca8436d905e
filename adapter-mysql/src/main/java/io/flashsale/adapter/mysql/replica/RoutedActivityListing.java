package io.flashsale.adapter.mysql.replica;

import io.flashsale.adapter.mysql.replica.ReplicaRouting.Reads;
import io.flashsale.application.sale.port.out.UnarchivedActivitiesPort;
import io.flashsale.domain.activity.Activity;

import java.util.List;

/** The operator's list of sales from the replica while it trails by at most the bound. */
public final class RoutedActivityListing implements UnarchivedActivitiesPort {

    private final UnarchivedActivitiesPort primary;
    private final UnarchivedActivitiesPort replica;
    private final ReplicaRouting routing;

    public RoutedActivityListing(UnarchivedActivitiesPort primary, UnarchivedActivitiesPort replica,
                                 ReplicaRouting routing) {
        this.primary = primary;
        this.replica = replica;
        this.routing = routing;
    }

    @Override
    public List<Activity> findUnarchived(int limit) {
        return routing.read(Reads.LISTING, primary, replica, activities -> activities.findUnarchived(limit));
    }
}
