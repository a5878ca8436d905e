package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.flashsale.acceptance.api.ApiAnswer;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static io.flashsale.acceptance.steps.ReservationLookups.awaitStatus;
import static io.flashsale.acceptance.steps.ReservationLookups.namesAnOrder;
import static io.flashsale.acceptance.steps.ReservationLookups.requiredTime;
import static io.flashsale.acceptance.steps.ReservationLookups.time;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The payment time limit: an order nobody pays for lapses, no sooner than the sale allows. */
public class ExpirySteps {

    /**
     * Past the sale's time to pay: how long the expiry job may take to notice, on a busy machine. A jump of the clock
     * also lets every unpaid order of the earlier scenarios lapse at once (seen: 380 orders, about 6 s at a load
     * average of 20), and this scenario's orders may come last.
     */
    static final Duration EXPIRY_SLACK = Duration.ofSeconds(60);

    private final SaleWorld world;

    public ExpirySteps(SaleWorld world) {
        this.world = world;
    }

    @Given("{buyer}'s order has lapsed unpaid")
    public void hasLapsed(String buyer) {
        awaitLapsed(world, world.buyerId(buyer), world.reservationOf(buyer), EXPIRY_SLACK);
    }

    @Then("within {int} seconds {buyer}'s order lapses unpaid")
    public void lapsesWithin(int seconds, String buyer) {
        awaitLapsed(world, world.buyerId(buyer), world.reservationOf(buyer), Duration.ofSeconds(seconds));
    }

    /**
     * Moves the service's clock past the order's payment deadline, waits until the buyer sees the order EXPIRED, and
     * checks that it lapsed no sooner than the time to pay. The deadline is reached by the clock, not by waiting, so
     * a scenario may give its buyers minutes to pay and still see the lapse at once.
     */
    static void awaitLapsed(SaleWorld world, String buyerId, String reservationId, Duration patience) {
        Instant placedAt = await("reservation " + reservationId + " placed as an order")
                .atMost(ReservationLookups.ORDER_PATIENCE).pollInterval(Duration.ofMillis(50)).pollInSameThread()
                .until(() -> time(ReservationLookups.lookUp(world, buyerId, reservationId), "orderedAt"),
                        Optional::isPresent).orElseThrow();
        world.clock().advanceTo(placedAt.plus(timeToPay(world)).plusMillis(1));
        ApiAnswer shown = awaitStatus(world, buyerId, reservationId, "EXPIRED", patience);
        assertThat(namesAnOrder(shown)).as("the order named: %s", shown.describe()).isTrue();
        Instant orderedAt = requiredTime(shown, "orderedAt");
        assertThat(requiredTime(shown, "expiredAt")).as("lapsed no sooner than the time to pay: %s", shown.describe())
                .isAfterOrEqualTo(orderedAt.plus(timeToPay(world)));
        assertThat(time(shown, "paidAt")).as("never paid: %s", shown.describe()).isEmpty();
    }

    static Duration timeToPay(SaleWorld world) {
        return Duration.ofSeconds(world.sale().paymentTimeoutSeconds().orElseThrow(() -> new AssertionError(
                "the scenario's sale sets no time to pay")));
    }
}
