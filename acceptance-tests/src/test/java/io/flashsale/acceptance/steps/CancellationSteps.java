package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;

import java.util.List;

import static io.flashsale.acceptance.steps.Answers.assertRefused;
import static io.flashsale.acceptance.steps.ReservationLookups.lookUp;
import static io.flashsale.acceptance.steps.ReservationLookups.namesAnOrder;
import static io.flashsale.acceptance.steps.ReservationLookups.requiredTime;
import static io.flashsale.acceptance.steps.ReservationLookups.time;
import static org.assertj.core.api.Assertions.assertThat;

/** A buyer changing their mind: cancelling an order, or a reservation that is not an order yet. */
public class CancellationSteps {

    private final SaleWorld world;

    public CancellationSteps(SaleWorld world) {
        this.world = world;
    }

    @When("{buyer} cancels her/his order")
    @When("{buyer} cancels her/his order again")
    @When("{buyer} cancels her/his reservation")
    public void cancels(String buyer) {
        world.sendAs(buyer, world.api().cancel(world.buyerId(buyer), world.reservationOf(buyer)));
    }

    @Then("{buyer}'s order is cancelled")
    public void orderIsCancelled(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertThat(answer.status()).as("the cancellation: %s", answer.describe()).isEqualTo(200);
        assertCancelledOrder(answer);
        assertCancelledOrder(lookUp(world, world.buyerId(buyer), world.reservationOf(buyer)));
    }

    @Then("both of {buyer}'s cancellations show the same order, cancelled once")
    public void bothCancellationsShowOneCancellation(String buyer) {
        List<ApiAnswer> two = world.lastAnswers(2);
        for (ApiAnswer cancellation : two) {
            assertThat(cancellation.status()).as("a cancellation: %s", cancellation.describe()).isEqualTo(200);
            assertCancelledOrder(cancellation);
        }
        assertThat(requiredTime(two.get(1), "cancelledAt")).as("the second cancellation names the first one's moment")
                .isEqualTo(requiredTime(two.get(0), "cancelledAt"));
    }

    @Then("{buyer}'s reservation is cancelled before it ever became an order")
    public void reservationCancelledBeforeOrder(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertThat(answer.status()).as("the cancellation: %s", answer.describe()).isEqualTo(200);
        assertCancelledBeforeOrder(answer);
    }

    @Then("{buyer} sees her/his reservation cancelled, never an order")
    public void seesCancelledNeverOrdered(String buyer) {
        assertCancelledBeforeOrder(lookUp(world, world.buyerId(buyer), world.reservationOf(buyer)));
    }

    @Then("{buyer} is refused because a paid order cannot be cancelled")
    public void refusedAsPaid(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertRefused(answer, 409, "NOT_CANCELLABLE");
        assertThat(answer.text("reservationStatus")).as("the order's status told: %s", answer.describe())
                .isEqualTo("PAID");
    }

    private static void assertCancelledOrder(ApiAnswer shown) {
        assertThat(shown.text("status")).as("cancelled: %s", shown.describe()).isEqualTo("CANCELLED");
        assertThat(namesAnOrder(shown)).as("the order named: %s", shown.describe()).isTrue();
        assertThat(requiredTime(shown, "cancelledAt")).as("cancelled after ordered: %s", shown.describe())
                .isAfterOrEqualTo(requiredTime(shown, "orderedAt"));
        assertThat(time(shown, "paidAt")).as("never paid: %s", shown.describe()).isEmpty();
    }

    private static void assertCancelledBeforeOrder(ApiAnswer shown) {
        assertThat(shown.text("status")).as("cancelled: %s", shown.describe()).isEqualTo("CANCELLED");
        assertThat(namesAnOrder(shown)).as("no order named: %s", shown.describe()).isFalse();
        assertThat(time(shown, "orderedAt")).as("never ordered: %s", shown.describe()).isEmpty();
        assertThat(requiredTime(shown, "cancelledAt")).as("cancelled after reserved: %s", shown.describe())
                .isAfterOrEqualTo(requiredTime(shown, "reservedAt"));
    }
}
