package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;
import io.flashsale.acceptance.api.FlashsaleApi;
import tools.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.flashsale.acceptance.steps.Answers.assertAccepted;
import static io.flashsale.acceptance.steps.Answers.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

/** One buyer at a time: reserving, repeating a request, and what the service answers. */
public class ReservationSteps {

    private final SaleWorld world;

    public ReservationSteps(SaleWorld world) {
        this.world = world;
    }

    @When("{buyer} reserves {basket}")
    @When("{buyer} reserves {basket} together")
    public void reserves(String buyer, Basket basket) {
        world.reserveAs(buyer, basket.request());
    }

    /** A sale in slices decides each buyer's attempts in the buyer's home slice (ADR 109). */
    @Given("{buyer}'s home is slice {int} of the sale")
    public void homeIsSlice(String buyer, int slice) {
        world.homeIn(buyer, slice);
    }

    @Given("{buyer} holds {basket}")
    public void holds(String buyer, Basket basket) {
        assertAccepted(world.reserveAs(buyer, basket.request()), world.sale().id());
    }

    @When("{buyer} reserves {basket} with request id {string}")
    public void reservesWithRequestId(String buyer, Basket basket, String requestId) {
        world.reserveAs(buyer, basket.request(requestId));
    }

    @When("{buyer} reserves {basket} with idempotency key {string}")
    public void reservesWithIdempotencyKey(String buyer, Basket basket, String key) {
        ApiCall call = world.api().reserve(world.sale().id(), world.buyerId(buyer), basket.request())
                .withHeader(FlashsaleApi.IDEMPOTENCY_HEADER, key);
        world.sendAs(buyer, call);
    }

    @When("{buyer} sends the same request again")
    public void sendsTheSameRequestAgain(String buyer) {
        world.sendAs(buyer, world.lastAnswerOf(buyer).call());
    }

    @When("{buyer} reserves {basket} in a sale that does not exist")
    public void reservesInAMissingSale(String buyer, Basket basket) {
        world.sendAs(buyer, world.api().reserve(world.unique("no-such-sale"), world.buyerId(buyer), basket.request()));
    }

    @When("{buyer} sends {int} identical requests for {basket} with request id {string} at the same moment")
    public void sendsIdenticalRequestsTogether(String buyer, int count, Basket basket, String requestId) {
        ApiCall call = world.api().reserve(world.sale().id(), world.buyerId(buyer), basket.request(requestId));
        world.crowdAnswered(world.api().sendTogether(IntStream.range(0, count).mapToObj(i -> call).toList()));
    }

    @Then("the reservation is accepted")
    public void theReservationIsAccepted() {
        assertAccepted(world.lastAnswer(), world.sale().id());
    }

    @Then("the reservation is accepted and holds {basket}")
    public void theReservationIsAcceptedAndHolds(Basket basket) {
        ApiAnswer answer = world.lastAnswer();
        assertAccepted(answer, world.sale().id());
        assertThat(linesOf(answer.json())).as("what the reservation holds: %s", answer.describe())
                .isEqualTo(basket.lines().stream().collect(Collectors.toMap(Basket.Line::skuId, Basket.Line::quantity)));
    }

    @Then("both reservations are accepted")
    public void bothReservationsAreAccepted() {
        world.lastAnswers(2).forEach(answer -> assertAccepted(answer, world.sale().id()));
    }

    @Then("both answers name the same reservation")
    public void bothAnswersNameTheSameReservation() {
        assertSameReservation(world.lastAnswers(2));
    }

    @Then("{buyer}'s two answers name the same reservation")
    public void theBuyersTwoAnswersNameTheSameReservation(String buyer) {
        List<ApiAnswer> own = world.answersOf(buyer);
        assertThat(own).as("%s's answers", buyer).hasSize(2);
        assertSameReservation(own);
    }

    private void assertSameReservation(List<ApiAnswer> two) {
        assertThat(assertAccepted(two.get(1), world.sale().id()))
                .as("the repeated answer names the first reservation")
                .isEqualTo(assertAccepted(two.get(0), world.sale().id()));
    }

    @Then("the two answers name different reservations")
    public void theTwoAnswersNameDifferentReservations() {
        List<ApiAnswer> two = world.lastAnswers(2);
        assertThat(assertAccepted(two.get(1), world.sale().id()))
                .as("each buyer has a reservation of their own")
                .isNotEqualTo(assertAccepted(two.get(0), world.sale().id()));
    }

    @Then("all {int} answers name the same reservation")
    public void allAnswersNameTheSameReservation(int count) {
        List<ApiAnswer> answers = world.crowdAnswers();
        assertThat(answers).hasSize(count);
        assertThat(answers).as("outcomes %s", Answers.outcomes(answers)).allMatch(Answers::isAccepted);
        Set<String> ids = answers.stream().map(answer -> assertAccepted(answer, world.sale().id()))
                .collect(Collectors.toSet());
        assertThat(ids).as("reservations named by the answers").hasSize(1);
    }

    @Then("{buyer} sees that reservation as held")
    public void seesTheReservation(String buyer) {
        String id = assertAccepted(world.lastAnswer(), world.sale().id());
        ApiAnswer shown = world.api().send(world.api().reservation(world.buyerId(buyer), id));
        assertThat(shown.status()).as("looking up the reservation: %s", shown.describe()).isEqualTo(200);
        assertThat(shown.text("reservationId")).isEqualTo(id);
        assertThat(shown.text("status")).as("the reservation: %s", shown.describe()).isIn(Answers.HELD_STATUSES);
    }

    @Then("{buyer} cannot see that reservation")
    public void cannotSeeTheReservation(String buyer) {
        ApiAnswer reserved = world.lastAnswer();
        String id = assertAccepted(reserved, world.sale().id());
        ApiAnswer shown = world.api().send(world.api().reservation(world.buyerId(buyer), id));
        assertThat(shown.status()).as("another buyer looking up the reservation: %s", shown.describe()).isEqualTo(404);
        assertThat(shown.json().has("items")).as("no lines shown: %s", shown.describe()).isFalse();
        assertThat(shown.body()).as("the owner is not shown").doesNotContain(Answers.buyerOf(reserved));
    }

    @Then("{buyer} is refused as over the limit of {int} {product}, already holding {int}")
    public void refusedOverTheLimit(String buyer, int limit, String skuId, int held) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertRefused(answer, 409, "LIMIT_EXCEEDED");
        assertThat(answer.text("skuId")).isEqualTo(skuId);
        assertThat(answer.json().path("limit").asInt(-1)).as("the limit told: %s", answer.describe()).isEqualTo(limit);
        assertThat(answer.json().path("held").asLong(-1)).as("the units held: %s", answer.describe()).isEqualTo(held);
    }

    @Then("{buyer} is refused because {product} is/are sold out")
    public void refusedSoldOut(String buyer, String skuId) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertRefused(answer, 409, "SOLD_OUT");
        assertThat(answer.text("skuId")).as("the product named: %s", answer.describe()).isEqualTo(skuId);
    }

    @Then("{buyer} is refused because there are not enough {product}, only {int} left")
    public void refusedInsufficientStock(String buyer, String skuId, long available) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertRefused(answer, 409, "INSUFFICIENT_STOCK");
        assertThat(answer.text("skuId")).as("the product named: %s", answer.describe()).isEqualTo(skuId);
        assertThat(answer.json().path("available").asLong(-1)).as("available told: %s", answer.describe())
                .isEqualTo(available);
    }

    @Then("{buyer} is refused because the sale has not started yet, and is told when it starts")
    public void refusedNotStarted(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertRefused(answer, 409, "NOT_STARTED");
        assertThat(Instant.parse(answer.text("startsAt"))).as("start told: %s", answer.describe())
                .isEqualTo(world.sale().startsAt());
    }

    @Then("{buyer} is refused because the sale has ended")
    public void refusedEnded(String buyer) {
        assertRefused(world.lastAnswerOf(buyer), 409, "ENDED");
    }

    @Then("{buyer} is asked to come back in a moment")
    public void askedToRetryLater(String buyer) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertRefused(answer, 503, "NOT_READY");
        assertThat(answer.header("Retry-After")).as("when to come back: %s", answer.describe())
                .hasValueSatisfying(seconds -> assertThat(Integer.parseInt(seconds.trim())).isPositive());
    }

    @Then("{buyer} is told the sale does not exist")
    public void toldTheSaleDoesNotExist(String buyer) {
        assertRefused(world.lastAnswerOf(buyer), 404, "ACTIVITY_NOT_FOUND");
    }

    @Then("{buyer} is refused because the sale offers no {product}")
    public void refusedUnknownProduct(String buyer, String skuId) {
        ApiAnswer answer = world.lastAnswerOf(buyer);
        assertRefused(answer, 422, "UNKNOWN_SKU");
        assertThat(answer.text("skuId")).as("the product named: %s", answer.describe()).isEqualTo(skuId);
    }

    private static Map<String, Integer> linesOf(JsonNode reservation) {
        Map<String, Integer> lines = new HashMap<>();
        for (JsonNode item : reservation.path("items")) {
            lines.put(item.path("skuId").asString(""), item.path("quantity").asInt(-1));
        }
        return lines;
    }
}
