package io.flashsale.adapter.redis.local;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flashsale.application.reservation.port.out.DeviceSightingsPort;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.risk.DeviceId;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The buyers each device was seen with, in a bounded Caffeine cache of this instance: an entry is made at a device's
 * first sighting and leaves {@code window} later (it is never written again, so the window is fixed, not sliding), or
 * earlier when more than {@code maximumDevices} are tracked (the least used go first). A device's set holds at most
 * the count asked for, so a device farm cannot grow one entry without bound.
 */
public final class CaffeineDeviceSightings implements DeviceSightingsPort {

    private final Cache<DeviceId, Set<BuyerId>> devices;

    public CaffeineDeviceSightings(Duration window, long maximumDevices) {
        this.devices = Caffeine.newBuilder()
                .expireAfterWrite(window)
                .maximumSize(maximumDevices)
                .build();
    }

    @Override
    public int buyersOf(DeviceId device, BuyerId buyer, int countUpTo) {
        Set<BuyerId> buyers = devices.get(device, any -> ConcurrentHashMap.newKeySet());
        if (buyers.size() < countUpTo) {
            buyers.add(buyer);
        }
        return buyers.contains(buyer) ? buyers.size() : Math.max(buyers.size(), countUpTo);
    }
}
