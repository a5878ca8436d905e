package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.flashsale.acceptance.api.ApiAnswer;

import java.time.Instant;

import static io.flashsale.acceptance.steps.Answers.assertAccepted;
import static io.flashsale.acceptance.steps.ReservationLookups.awaitStatus;
import static io.flashsale.acceptance.steps.ReservationLookups.lookUp;
import static io.flashsale.acceptance.steps.ReservationLookups.namesAnOrder;
import static io.flashsale.acceptance.steps.ReservationLookups.requiredTime;
import static org.assertj.core.api.Assertions.assertThat;

/** A named buyer's reservation on its way through the lifecycle: placed as an order, and what the buyer sees. */
public class BuyerOrderSteps {

    private final SaleWorld world;

    public BuyerOrderSteps(SaleWorld world) {
        this.world = world;
    }

    @Given("{buyer} has an order for {basket}")
    public void hasAnOrder(String buyer, Basket basket) {
        assertAccepted(world.reserveAs(buyer, basket.request()), world.sale().id());
        ApiAnswer shown = awaitStatus(world, world.buyerId(buyer), world.reservationOf(buyer), "ORDERED",
                ReservationLookups.ORDER_PATIENCE);
        assertThat(namesAnOrder(shown)).as("the order named: %s", shown.describe()).isTrue();
    }

    @Then("{buyer}'s order is waiting for payment")
    public void waitingForPayment(String buyer) {
        ApiAnswer shown = lookUp(world, world.buyerId(buyer), world.reservationOf(buyer));
        assertThat(shown.text("status")).as("unpaid: %s", shown.describe()).isEqualTo("ORDERED");
        assertThat(ReservationLookups.time(shown, "paidAt")).as("no payment yet: %s", shown.describe()).isEmpty();
    }

    @Then("{buyer} still sees her/his order as paid")
    public void stillSeesPaid(String buyer) {
        ApiAnswer shown = lookUp(world, world.buyerId(buyer), world.reservationOf(buyer));
        assertPaid(shown);
    }

    @Then("{buyer} still sees her/his order waiting for payment")
    public void stillSeesOrdered(String buyer) {
        waitingForPayment(buyer);
    }

    /** PAID, naming its order, with its times in the order the lifecycle went through them. */
    static void assertPaid(ApiAnswer shown) {
        assertThat(shown.text("status")).as("paid: %s", shown.describe()).isEqualTo("PAID");
        assertThat(namesAnOrder(shown)).as("the order named: %s", shown.describe()).isTrue();
        Instant reservedAt = requiredTime(shown, "reservedAt");
        Instant orderedAt = requiredTime(shown, "orderedAt");
        Instant paidAt = requiredTime(shown, "paidAt");
        assertThat(orderedAt).as("ordered after reserved: %s", shown.describe()).isAfterOrEqualTo(reservedAt);
        assertThat(paidAt).as("paid after ordered: %s", shown.describe()).isAfterOrEqualTo(orderedAt);
        assertThat(ReservationLookups.time(shown, "cancelledAt")).as("never cancelled: %s", shown.describe()).isEmpty();
        assertThat(ReservationLookups.time(shown, "expiredAt")).as("never lapsed: %s", shown.describe()).isEmpty();
    }
}
