package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;

import java.util.Map;

import static io.flashsale.acceptance.steps.Answers.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

/** Malformed and hostile requests: each is refused with its stable code and changes nothing. */
public class BadInputSteps {

    private static final Map<String, Integer> STATUS_OF_CODE = Map.of(
            "VALIDATION", 400,
            "TOKEN_MISSING", 401,
            "TOKEN_INVALID", 401,
            "TOKEN_EXPIRED", 401,
            "UNAUTHORIZED", 401,
            "PAYLOAD_TOO_LARGE", 413);

    private final SaleWorld world;
    private MalformedRequests requests;

    public BadInputSteps(SaleWorld world) {
        this.world = world;
    }

    @When("^someone sends (.+)$")
    public void someoneSends(String request) {
        requests = new MalformedRequests(world);
        world.send(requests.named(request));
    }

    /** The refusals in the analyst's words, and the stable problem code each one is. */
    static final Map<String, String> CODE_OF_REASON = Map.of(
            "an invalid request", "VALIDATION",
            "too large", "PAYLOAD_TOO_LARGE",
            "coming from no signed-in buyer", "TOKEN_MISSING",
            "a sign-in that is not valid", "TOKEN_INVALID",
            "a sign-in that has run out", "TOKEN_EXPIRED",
            "not coming from the admin", "UNAUTHORIZED");

    /** A reason in words (see {@link #CODE_OF_REASON}), or a problem code as it stands. */
    @Then("^it is refused as (.+)$")
    public void refusedAs(String reason) {
        String code = CODE_OF_REASON.getOrDefault(reason, reason);
        assertThat(STATUS_OF_CODE).as("codes this feature knows").containsKey(code);
        assertRefused(world.lastAnswer(), STATUS_OF_CODE.get(code), code);
    }

    @Then("no new sale has appeared")
    public void noNewSale() {
        ApiAnswer lookup = world.api().send(world.api().sale(requests.proposedSaleId()));
        assertThat(lookup.status()).as("the refused sale: %s", lookup.describe()).isEqualTo(404);
    }
}
