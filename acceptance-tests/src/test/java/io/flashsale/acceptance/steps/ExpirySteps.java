package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.inspect.ShopDatabase;

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
    private final ShopDatabase books;

    public ExpirySteps(SaleWorld world, ShopDatabase books) {
        this.world = world;
        this.books = books;
    }

    /**
     * As a precondition the lapse is complete: the order EXPIRED, and its units back for sale in the fast store too.
     * The books record the lapse first and the fast store takes the units back just after; a buyer who tried to buy
     * in between would find the sale sold out (seen once on the JDK-only run, a sale of one ticket).
     */
    @Given("{buyer}'s order has lapsed unpaid")
    public void hasLapsed(String buyer) {
        awaitLapsed(world, world.buyerId(buyer), world.reservationOf(buyer), EXPIRY_SLACK);
        String saleId = world.sale().id();
        await("the lapsed order's units back in the fast store").atMost(EXPIRY_SLACK)
                .pollInterval(Duration.ofMillis(100)).pollInSameThread()
                .untilAsserted(() -> world.sale().products().forEach(product ->
                        assertThat(world.stockOf(product.skuId()).sold()).as("%s sold in the fast store",
                                product.skuId()).isEqualTo(books.item(saleId, product.skuId()).sold())));
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
        await("reservation " + reservationId + " placed as an order")
                .atMost(ReservationLookups.ORDER_PATIENCE).pollInterval(Duration.ofMillis(50)).pollInSameThread()
                .until(() -> time(ReservationLookups.lookUp(world, buyerId, reservationId), "orderedAt"),
                        Optional::isPresent);
        // The time to pay counts from the buyer's answer, not from the order's placement (ADR 82).
        Instant reservedAt = requiredTime(ReservationLookups.lookUp(world, buyerId, reservationId), "reservedAt");
        world.clock().advanceTo(reservedAt.plus(timeToPay(world)).plusMillis(1));
        ApiAnswer shown = awaitStatus(world, buyerId, reservationId, "EXPIRED", patience);
        assertThat(namesAnOrder(shown)).as("the order named: %s", shown.describe()).isTrue();
        assertThat(requiredTime(shown, "expiredAt")).as("lapsed no sooner than the time to pay: %s", shown.describe())
                .isAfterOrEqualTo(reservedAt.plus(timeToPay(world)));
        assertThat(time(shown, "paidAt")).as("never paid: %s", shown.describe()).isEmpty();
    }

    static Duration timeToPay(SaleWorld world) {
        return Duration.ofSeconds(world.sale().paymentTimeoutSeconds().orElseThrow(() -> new AssertionError(
                "the scenario's sale sets no time to pay")));
    }
}
