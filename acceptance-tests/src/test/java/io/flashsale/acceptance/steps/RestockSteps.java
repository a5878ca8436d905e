package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;

import java.util.ArrayList;
import java.util.List;

import static io.flashsale.acceptance.steps.Answers.assertAccepted;
import static io.flashsale.acceptance.steps.Answers.assertRefused;
import static io.flashsale.acceptance.steps.ReservationLookups.awaitStatus;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A group of buyers with one order each, some of whom pay, cancel or let the order lapse; and the buyers who come
 * after them for the units given back. The group is taken in order: "3 of them" are the next three who did nothing yet.
 */
public class RestockSteps {

    private final SaleWorld world;
    private final List<Member> members = new ArrayList<>();
    private final List<ApiAnswer> latecomers = new ArrayList<>();
    private int decided;

    private record Member(String buyerId, String reservationId) {
    }

    public RestockSteps(SaleWorld world) {
        this.world = world;
    }

    @Given("{int} buyers each have an order for {basket}")
    public void buyersHaveOrders(int buyers, Basket basket) {
        List<ApiCall> calls = new ArrayList<>();
        for (int buyer = 1; buyer <= buyers; buyer++) {
            calls.add(world.api().reserve(world.sale().id(), world.buyerId("Buyer" + buyer), basket.request()));
        }
        List<ApiAnswer> answers = world.api().sendTogether(calls);
        world.crowdAnswered(answers);
        for (ApiAnswer answer : answers) {
            members.add(new Member(Answers.buyerOf(answer), assertAccepted(answer, world.sale().id())));
        }
        for (Member member : members) {
            awaitStatus(world, member.buyerId(), member.reservationId(), "ORDERED", ReservationLookups.ORDER_PATIENCE);
        }
    }

    @When("{int} of them pay for their orders")
    public void theyPay(int count) {
        for (Member member : next(count)) {
            ApiAnswer paid = world.send(world.paymentProvider().confirms(member.reservationId(),
                    world.unique("pay") + "-" + member.buyerId()));
            assertThat(paid.status()).as("a payment: %s", paid.describe()).isEqualTo(200);
            assertThat(paid.text("status")).as("paid: %s", paid.describe()).isEqualTo("PAID");
        }
    }

    @When("{int} of them cancel their orders")
    public void theyCancel(int count) {
        for (Member member : next(count)) {
            ApiAnswer cancelled = world.send(world.api().cancel(member.buyerId(), member.reservationId()));
            assertThat(cancelled.status()).as("a cancellation: %s", cancelled.describe()).isEqualTo(200);
            assertThat(cancelled.text("status")).as("cancelled: %s", cancelled.describe()).isEqualTo("CANCELLED");
        }
    }

    @Then("the orders of the other {int} lapse unpaid")
    public void theOthersLapse(int count) {
        List<Member> others = next(count);
        assertThat(decided).as("every buyer of the group accounted for").isEqualTo(members.size());
        for (Member member : others) {
            ExpirySteps.awaitLapsed(world, member.buyerId(), member.reservationId(), ExpirySteps.EXPIRY_SLACK);
        }
    }

    @When("{int} more buyers each reserve {basket}, one after another")
    public void latecomersReserve(int buyers, Basket basket) {
        for (int buyer = 1; buyer <= buyers; buyer++) {
            latecomers.add(world.send(world.api().reserve(world.sale().id(), world.buyerId("Latecomer" + buyer),
                    basket.request())));
        }
    }

    @Then("the first {int} of them are accepted and the last is refused because {product} is/are sold out")
    public void firstAcceptedLastRefused(int accepted, String skuId) {
        assertThat(latecomers).as("the latecomers' answers, %s", Answers.outcomes(latecomers)).hasSize(accepted + 1);
        latecomers.subList(0, accepted).forEach(answer -> assertAccepted(answer, world.sale().id()));
        ApiAnswer last = latecomers.getLast();
        assertRefused(last, 409, "SOLD_OUT");
        assertThat(last.text("skuId")).as("the product named: %s", last.describe()).isEqualTo(skuId);
    }

    private List<Member> next(int count) {
        assertThat(decided + count).as("buyers in the group").isLessThanOrEqualTo(members.size());
        List<Member> chosen = members.subList(decided, decided + count);
        decided += count;
        return chosen;
    }
}
