package io.flashsale.acceptance.steps;

import io.cucumber.java.en.When;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sale's own moments, its opening and its end: the service's clock jumps to them rather than the scenario waiting,
 * so a loaded machine can never let a sale end before the steps that come before its end have run.
 */
public class TimeSteps {

    private final SaleWorld world;

    public TimeSteps(SaleWorld world) {
        this.world = world;
    }

    @When("the sale opens")
    public void theSaleOpens() {
        reach(world.sale().startsAt());
    }

    @When("the sale has ended")
    public void theSaleHasEnded() {
        reach(world.sale().endsAt());
    }

    private void reach(Instant moment) {
        world.clock().advanceTo(moment.plusMillis(1));
        assertThat(world.clock().instant()).as("the service's time").isAfter(moment);
    }
}
