package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.inspect.ShopDatabase;

import java.time.Instant;
import java.util.List;

import static io.flashsale.acceptance.steps.Answers.assertRefused;
import static io.flashsale.acceptance.steps.ReservationLookups.lookUp;
import static io.flashsale.acceptance.steps.ReservationLookups.requiredTime;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paying for an order: the buyer pays at the payment provider, and the provider's signed confirmation pays the order;
 * once, too late, too early, twice, or by the buyer's own word.
 */
public class PaymentSteps {

    private final SaleWorld world;
    private final ShopDatabase books;

    public PaymentSteps(SaleWorld world, ShopDatabase books) {
        this.world = world;
        this.books = books;
    }

    @When("{buyer} pays for her/his order")
    @When("{buyer} pays for her/his reservation")
    @When("the payment provider confirms {buyer}'s payment")
    public void pays(String buyer) {
        confirm(buyer, world.newPaymentOf(buyer));
    }

    @When("the payment provider confirms the same payment of {buyer}'s again")
    public void confirmsAgain(String buyer) {
        confirm(buyer, world.paymentOf(buyer));
    }

    @When("the payment provider confirms a second payment for {buyer}'s order")
    public void confirmsASecondPayment(String buyer) {
        confirm(buyer, world.newPaymentOf(buyer));
    }

    @When("{buyer} tries to mark her/his order as paid herself/himself")
    public void marksPaidHerself(String buyer) {
        world.sendAs(buyer, world.api().pay(world.buyerId(buyer), world.reservationOf(buyer)));
    }

    private void confirm(String buyer, String paymentReference) {
        world.sendAs(buyer, world.paymentProvider().confirms(world.reservationOf(buyer), paymentReference));
    }

    @Then("{buyer}'s order is paid")
    public void orderIsPaid(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertConfirmed(answer, buyer);
        BuyerOrderSteps.assertPaid(lookUp(world, world.buyerId(buyer), world.reservationOf(buyer)));
    }

    @Then("both confirmations show {buyer}'s order paid once")
    public void bothConfirmationsShowOnePayment(String buyer) {
        List<ApiAnswer> two = world.lastAnswers(2);
        for (ApiAnswer confirmation : two) {
            assertConfirmed(confirmation, buyer);
        }
        assertThat(two.get(1).body()).as("the second confirmation is answered as the first").isEqualTo(two.get(0).body());
        assertThat(requiredTime(lookUp(world, world.buyerId(buyer), world.reservationOf(buyer)), "paidAt"))
                .as("the moment of payment the buyer sees afterwards")
                .isEqualTo(Instant.parse(two.get(0).text("paidAt")));
    }

    @Then("the second payment for {buyer}'s order is refused and kept for a refund")
    public void secondPaymentRefused(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertRefused(answer, 409, "PAYMENT_CONFLICT");
        assertThat(answer.text("reservationStatus")).as("the order is paid: %s", answer.describe()).isEqualTo("PAID");
        assertKeptForARefund(buyer);
    }

    @Then("{buyer} is told that only the payment provider confirms payments")
    public void toldOnlyTheProviderConfirms(String buyer) {
        assertRefused(world.lastAnswerOf(buyer), 403, "BUYER_PAYMENT_DISABLED");
    }

    @Then("{buyer}'s payment is refused because her/his order has lapsed, and kept for a refund")
    public void refusedAsLapsed(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertPaymentRefused(answer, "EXPIRED");
        assertThat(answer.header("Retry-After")).as("no point in trying again: %s", answer.describe()).isEmpty();
        assertKeptForARefund(buyer);
    }

    @Then("{buyer}'s payment is refused because her/his order was cancelled, and kept for a refund")
    public void refusedAsCancelled(String buyer) {
        assertPaymentRefused(world.lastAnswerOf(buyer), "CANCELLED");
        assertKeptForARefund(buyer);
    }

    @Then("the payment provider is asked to confirm {buyer}'s payment again shortly, as the order is not placed yet")
    public void askedToConfirmLater(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertRefused(answer, 409, "NOT_PAYABLE");
        assertThat(answer.text("reservationStatus")).as("the status told: %s", answer.describe()).isEqualTo("RESERVED");
        assertThat(answer.header("Retry-After")).as("when to try again: %s", answer.describe())
                .hasValueSatisfying(seconds -> assertThat(Integer.parseInt(seconds.trim())).isPositive());
    }

    /** The provider's answer to a confirmation that paid the order, or that had paid it before. */
    private void assertConfirmed(ApiAnswer answer, String buyer) {
        assertThat(answer.status()).as("the confirmation: %s", answer.describe()).isEqualTo(200);
        assertThat(answer.text("reservationId")).as("the order paid").isEqualTo(world.reservationOf(buyer));
        assertThat(answer.text("status")).as("paid: %s", answer.describe()).isEqualTo("PAID");
        assertThat(answer.text("paymentReference")).as("the payment").isEqualTo(world.paymentOf(buyer));
        assertThat(Instant.parse(answer.text("paidAt"))).as("when it was paid").isNotNull();
    }

    private void assertKeptForARefund(String buyer) {
        assertThat(books.paymentsOwedBack(world.reservationOf(buyer))).as("%s's payments owed back", buyer)
                .contains(world.paymentOf(buyer));
    }

    private static void assertPaymentRefused(ApiAnswer answer, String status) {
        assertRefused(answer, 409, "PAYMENT_REFUSED");
        assertThat(answer.text("reservationStatus")).as("the order's status told: %s", answer.describe())
                .isEqualTo(status);
    }
}
