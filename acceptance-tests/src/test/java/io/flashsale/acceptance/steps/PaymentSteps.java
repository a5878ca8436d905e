package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;

import java.util.List;

import static io.flashsale.acceptance.steps.Answers.assertRefused;
import static io.flashsale.acceptance.steps.ReservationLookups.lookUp;
import static io.flashsale.acceptance.steps.ReservationLookups.requiredTime;
import static org.assertj.core.api.Assertions.assertThat;

/** Paying for an order, twice, too late, too early, or for someone else's. */
public class PaymentSteps {

    private final SaleWorld world;

    public PaymentSteps(SaleWorld world) {
        this.world = world;
    }

    @When("{buyer} pays for her/his order")
    @When("{buyer} pays for her/his order again")
    @When("{buyer} pays for her/his reservation")
    public void pays(String buyer) {
        world.sendAs(buyer, world.api().pay(world.buyerId(buyer), world.reservationOf(buyer)));
    }

    @When("{buyer} tries to pay for {buyer}'s order")
    public void paysForSomeoneElse(String payer, String owner) {
        world.sendAs(payer, world.api().pay(world.buyerId(payer), world.reservationOf(owner)));
    }

    @Then("{buyer}'s order is paid")
    public void orderIsPaid(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertThat(answer.status()).as("the payment: %s", answer.describe()).isEqualTo(200);
        assertThat(answer.text("reservationId")).as("the order paid").isEqualTo(world.reservationOf(buyer));
        BuyerOrderSteps.assertPaid(answer);
        BuyerOrderSteps.assertPaid(lookUp(world, world.buyerId(buyer), world.reservationOf(buyer)));
    }

    @Then("both of {buyer}'s payments show the same order, paid once")
    public void bothPaymentsShowOnePayment(String buyer) {
        List<ApiAnswer> two = world.lastAnswers(2);
        for (ApiAnswer payment : two) {
            assertThat(payment.status()).as("a payment: %s", payment.describe()).isEqualTo(200);
            BuyerOrderSteps.assertPaid(payment);
        }
        assertThat(requiredTime(two.get(1), "paidAt")).as("the second payment names the first one's moment")
                .isEqualTo(requiredTime(two.get(0), "paidAt"));
        assertThat(requiredTime(lookUp(world, world.buyerId(buyer), world.reservationOf(buyer)), "paidAt"))
                .as("the moment of payment the buyer sees afterwards")
                .isEqualTo(requiredTime(two.get(0), "paidAt"));
    }

    @Then("{buyer} is refused because her/his order has lapsed and can no longer be paid")
    public void refusedAsLapsed(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertNotPayable(answer, "EXPIRED");
        assertThat(answer.header("Retry-After")).as("no point in trying again: %s", answer.describe()).isEmpty();
    }

    @Then("{buyer} is refused because her/his order was cancelled and can no longer be paid")
    public void refusedAsCancelled(String buyer) {
        assertNotPayable(world.lastAnswerOf(buyer), "CANCELLED");
    }

    @Then("{buyer} is asked to pay again shortly, as her/his order is not placed yet")
    public void askedToPayLater(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertNotPayable(answer, "RESERVED");
        assertThat(answer.header("Retry-After")).as("when to try again: %s", answer.describe())
                .hasValueSatisfying(seconds -> assertThat(Integer.parseInt(seconds.trim())).isPositive());
    }

    @Then("{buyer} is told there is no such order")
    public void toldNoSuchOrder(String buyer) {
        assertRefused(world.lastAnswerOf(buyer), 404, "RESERVATION_NOT_FOUND");
    }

    private static void assertNotPayable(ApiAnswer answer, String status) {
        assertRefused(answer, 409, "NOT_PAYABLE");
        assertThat(answer.text("reservationStatus")).as("the order's status told: %s", answer.describe())
                .isEqualTo(status);
    }
}
