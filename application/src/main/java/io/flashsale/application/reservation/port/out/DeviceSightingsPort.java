package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.risk.DeviceId;

/**
 * The buyers each device was seen with lately, on this instance: a device's window opens at its first sighting and
 * closes after a fixed time, taking its buyers with it.
 */
public interface DeviceSightingsPort {

    /**
     * Notes that {@code buyer} used {@code device} and answers how many distinct buyers the device has had in its
     * current window, this one included; counting may stop past {@code countUpTo} (the answer is then at least it).
     */
    int buyersOf(DeviceId device, BuyerId buyer, int countUpTo);
}
