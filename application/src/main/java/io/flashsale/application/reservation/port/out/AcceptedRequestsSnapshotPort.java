package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;

/** The request keys a sale had accepted when it was read, as a set that may hold more than those (never fewer). */
public interface AcceptedRequestsSnapshotPort {

    /** False only when the buyer's request was surely not accepted before the read. */
    boolean mayHold(BuyerId buyerId, RequestId requestId);
}
