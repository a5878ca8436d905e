package io.flashsale.adapter.redis.local;

import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.risk.DeviceId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Timeout(30)
class CaffeineDeviceSightingsTest {

    private static final DeviceId PHONE = new DeviceId("phone-1");

    @Test
    void distinctBuyersAreCountedUpToTheCapAndARepeatCountsOnce() {
        CaffeineDeviceSightings sightings = new CaffeineDeviceSightings(Duration.ofMinutes(10), 100);

        assertThat(sightings.buyersOf(PHONE, new BuyerId("alice"), 3)).isEqualTo(1);
        assertThat(sightings.buyersOf(PHONE, new BuyerId("alice"), 3)).isEqualTo(1);
        assertThat(sightings.buyersOf(PHONE, new BuyerId("bob"), 3)).isEqualTo(2);
        assertThat(sightings.buyersOf(PHONE, new BuyerId("carol"), 3)).isEqualTo(3);
        // Past the cap nobody more is kept, and everyone is told the device is at it.
        assertThat(sightings.buyersOf(PHONE, new BuyerId("dave"), 3)).isEqualTo(3);
        assertThat(sightings.buyersOf(PHONE, new BuyerId("alice"), 3)).isEqualTo(3);
        assertThat(sightings.buyersOf(new DeviceId("phone-2"), new BuyerId("dave"), 3)).isEqualTo(1);
    }

    @Test
    void theWindowOpensAtTheFirstSightingAndIsNotStretchedByLaterOnes() {
        CaffeineDeviceSightings sightings = new CaffeineDeviceSightings(Duration.ofMillis(400), 100);
        long opened = System.nanoTime();
        sightings.buyersOf(PHONE, new BuyerId("alice"), 3);
        sightings.buyersOf(PHONE, new BuyerId("bob"), 3);

        // Seen again and again; still the window closes 400 ms after the first sighting, taking both buyers.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> sightings.buyersOf(PHONE, new BuyerId("alice"), 3) == 1);
        assertThat(Duration.ofNanos(System.nanoTime() - opened)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
    }
}
