package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.ApiCall;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.flashsale.acceptance.steps.Answers.assertAccepted;
import static org.assertj.core.api.Assertions.assertThat;

/** A crowd of buyers released at the same instant against one SKU. */
public class RaceSteps {

    private static final Set<String> LOSING_CODES = Set.of("SOLD_OUT", "LIMIT_EXCEEDED");
    /** The crowd's buyers are Buyer1, Buyer2 and so on, in every crowd of a scenario. */
    private static final String CROWD = "Buyer";

    private final SaleWorld world;
    /** The crowds the scenario has sent so far. */
    private int crowds;

    public RaceSteps(SaleWorld world) {
        this.world = world;
    }

    /**
     * A later crowd of the same scenario is the same buyers trying again, with new requests: not their earlier
     * requests repeated, which would only be answered as they were.
     */
    @When("{int} buyers each send {int} reservation request(s) at the same moment")
    public void buyersRace(int buyers, int requestsEach) {
        String saleId = world.sale().id();
        String product = world.sale().onlyProduct();
        crowds++;
        String requestIds = crowds == 1 ? "attempt-" : "crowd" + crowds + "-attempt-";
        List<ApiCall> calls = new ArrayList<>();
        // Round by round, so that one buyer's requests sit far apart and leave from different clients.
        for (int round = 1; round <= requestsEach; round++) {
            for (int buyer = 1; buyer <= buyers; buyer++) {
                Map<String, Object> request = Map.of("requestId", requestIds + round,
                        "items", List.of(Map.of("skuId", product, "quantity", 1)));
                calls.add(world.api().reserve(saleId, world.buyerId(CROWD + buyer), request));
            }
        }
        world.crowdAnswered(world.api().sendTogether(calls));
    }

    /**
     * The first buyers of the scenario's crowd, each given an identity whose home is that slice of the sale in slices
     * (ADR 109), reserve one after the other and are each accepted. A later crowd counts them among its buyers.
     */
    @Given("{int} buyers whose home is slice {int} of the sale each hold {basket}")
    public void buyersHomedInASliceHold(int buyers, int slice, Basket basket) {
        for (int buyer = 1; buyer <= buyers; buyer++) {
            world.homeIn(CROWD + buyer, slice);
        }
        for (int buyer = 1; buyer <= buyers; buyer++) {
            assertAccepted(world.reserveAs(CROWD + buyer, basket.request()), world.sale().id());
        }
    }

    @Then("exactly {int} reservation(s) is/are accepted")
    public void exactlyAccepted(int expected) {
        List<ApiAnswer> answers = world.crowdAnswers();
        assertThat(accepted(answers)).as("accepted reservations; all outcomes %s", Answers.outcomes(answers))
                .hasSize(expected);
    }

    @Then("the other {int} are refused as sold out or over the limit")
    public void theOthersAreRefused(int expected) {
        List<ApiAnswer> answers = world.crowdAnswers();
        long refused = answers.stream()
                .filter(answer -> answer.status() == 409 && LOSING_CODES.contains(answer.code()))
                .count();
        assertThat(refused).as("refused as sold out or over the limit; all outcomes %s", Answers.outcomes(answers))
                .isEqualTo(expected);
        assertThat(accepted(answers).size() + refused).as("every request is accepted or refused so; outcomes %s",
                Answers.outcomes(answers)).isEqualTo(answers.size());
    }

    @Then("{int} different buyers hold a reservation")
    public void differentBuyersHoldAReservation(int expected) {
        List<ApiAnswer> winners = accepted(world.crowdAnswers());
        String saleId = world.sale().id();
        Set<String> buyers = winners.stream().map(Answers::buyerOf).collect(Collectors.toSet());
        Set<String> reservations = winners.stream().map(answer -> assertAccepted(answer, saleId))
                .collect(Collectors.toSet());
        assertThat(buyers).as("buyers holding a reservation").hasSize(expected);
        assertThat(reservations).as("distinct reservations").hasSize(winners.size());
        // Each winner finds their reservation when they look it up: the answers were not just words.
        List<ApiCall> lookups = winners.stream()
                .map(answer -> world.api().reservation(Answers.buyerOf(answer), answer.text("reservationId")))
                .toList();
        for (ApiAnswer shown : world.api().sendTogether(lookups)) {
            assertThat(shown.status()).as("a winner's reservation: %s", shown.describe()).isEqualTo(200);
            assertThat(shown.text("status")).as("a winner's reservation: %s", shown.describe())
                    .isIn(Answers.HELD_STATUSES);
        }
    }

    private static List<ApiAnswer> accepted(List<ApiAnswer> answers) {
        return answers.stream().filter(Answers::isAccepted).toList();
    }
}
