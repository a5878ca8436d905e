package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.api.SaleSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static io.flashsale.acceptance.steps.Answers.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

/** The operator's hand on a sale: pausing it, resuming it, moving its end or its start. */
public class SaleControlSteps {

    private final SaleWorld world;
    /** The sale's end as planned, before the operator moved it. */
    private Instant plannedEnd;

    public SaleControlSteps(SaleWorld world) {
        this.world = world;
    }

    @When("the operator pauses the sale")
    public void pauses() {
        assertPausedIs(world.send(world.api().pause(world.sale().id())), true);
    }

    @When("the operator resumes the sale")
    public void resumes() {
        assertPausedIs(world.send(world.api().resume(world.sale().id())), false);
    }

    private static void assertPausedIs(ApiAnswer answer, boolean paused) {
        assertThat(answer.status()).as("the operator's change: %s", answer.describe()).isEqualTo(200);
        assertThat(answer.json().path("paused").asBoolean()).as("paused: %s", answer.describe()).isEqualTo(paused);
    }

    @When("the operator extends the sale by {int} hour(s)")
    public void extendsBy(int hours) {
        moveEnd(world.sale().endsAt().plus(Duration.ofHours(hours)));
    }

    @When("the operator tries to end the sale {int} minute(s) ago")
    public void endsInThePast(int minutes) {
        moveEnd(world.clock().instant().minus(Duration.ofMinutes(minutes)));
    }

    @When("the operator moves the sale's start {int} minute(s) earlier")
    public void movesStartEarlier(int minutes) {
        SaleSpec sale = world.sale();
        ApiAnswer answer = world.send(world.api().moveWindow(sale.id(),
                Map.of("startsAt", sale.startsAt().minus(Duration.ofMinutes(minutes)).toString())));
        if (answer.status() == 200) {
            world.saleMoved(sale.withWindow(Instant.parse(answer.text("startsAt")), sale.endsAt()));
        }
    }

    private void moveEnd(Instant endsAt) {
        SaleSpec sale = world.sale();
        plannedEnd = sale.endsAt();
        ApiAnswer answer = world.send(world.api().moveWindow(sale.id(), Map.of("endsAt", endsAt.toString())));
        if (answer.status() == 200) {
            world.saleMoved(sale.withWindow(sale.startsAt(), Instant.parse(answer.text("endsAt"))));
        }
    }

    @When("the sale's planned end has passed")
    public void plannedEndPassed() {
        world.clock().advanceTo(plannedEnd.plusMillis(1));
    }

    @Then("{buyer} is refused because the sale is paused")
    public void refusedPaused(String buyer) {
        assertRefused(world.lastAnswerOf(buyer), 409, "SALE_PAUSED");
    }

    @Then("the sale now ends {int} hour(s) later than planned")
    public void endsLater(int hours) {
        ApiAnswer answer = world.lastAnswer();
        assertThat(answer.status()).as("the extension: %s", answer.describe()).isEqualTo(200);
        assertThat(Instant.parse(answer.text("endsAt"))).as("the new end: %s", answer.describe())
                .isEqualTo(plannedEnd.plus(Duration.ofHours(hours)));
        ApiAnswer read = world.api().send(world.api().sale(world.sale().id()));
        assertThat(Instant.parse(read.text("endsAt"))).as("the sale as buyers see it: %s", read.describe())
                .isEqualTo(plannedEnd.plus(Duration.ofHours(hours)));
    }

    @Then("the operator is refused because a running sale cannot end in the past")
    public void refusedEndInThePast() {
        assertRefused(world.lastAnswer(), 409, "ENDS_NOT_AFTER_NOW");
    }

    @Then("the operator is refused because the sale has already ended")
    public void refusedEnded() {
        assertRefused(world.lastAnswer(), 409, "SALE_ENDED");
    }
}
