package io.flashsale.acceptance.steps;

import io.cucumber.java.After;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.When;
import io.flashsale.adapter.scheduling.OutboxRelayLoop;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holds reservations back on their way to the shop's books, so a scenario can act while one is still only a
 * reservation. The service under test runs in this JVM: its outbox relay is stopped and started again, exactly as
 * the service does on shutdown and start; the hot store keeps every reservation meanwhile.
 */
public class PipelineSteps {

    private final OutboxRelayLoop relay;
    private boolean held;

    public PipelineSteps(OutboxRelayLoop relay) {
        this.relay = relay;
    }

    @Given("the shop has stopped turning reservations into orders for a while")
    public void holdBack() {
        relay.stop();
        assertThat(relay.isRunning()).as("the outbox relay stopped").isFalse();
        held = true;
    }

    @When("the shop turns reservations into orders again")
    public void release() {
        relay.start();
        held = false;
    }

    /** A scenario that failed while holding back must not leave the next ones without orders. */
    @After
    public void releaseIfHeld() {
        if (held) {
            release();
        }
    }
}
