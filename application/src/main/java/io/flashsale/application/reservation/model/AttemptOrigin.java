package io.flashsale.application.reservation.model;

import io.flashsale.domain.risk.DeviceId;

/**
 * Where an attempt came from, for the risk control: the client's address (the connection's, or the one a trusted
 * proxy forwarded; null when unknown) and the device id it reported (null when none). Unlike the rate limit's client
 * address, nothing is exempt here.
 */
public record AttemptOrigin(String address, DeviceId device) {

    public static final AttemptOrigin UNKNOWN = new AttemptOrigin(null, null);
}
