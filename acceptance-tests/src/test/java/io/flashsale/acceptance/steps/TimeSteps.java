package io.flashsale.acceptance.steps;

import io.cucumber.java.en.When;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Waiting for the sale's own moments: its opening and its end, a few seconds away in these scenarios. */
public class TimeSteps {

    /** Longer than any sale in the features is set to wait for. */
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(15);
    private static final Duration POLL = Duration.ofMillis(20);

    private final SaleWorld world;

    public TimeSteps(SaleWorld world) {
        this.world = world;
    }

    @When("the sale opens")
    public void theSaleOpens() {
        waitUntil(world.sale().startsAt(), "the sale's start");
    }

    @When("the sale has ended")
    public void theSaleHasEnded() {
        waitUntil(world.sale().endsAt(), "the sale's end");
    }

    private static void waitUntil(Instant moment, String what) {
        assertThat(Duration.between(Instant.now(), moment)).as("%s is near", what).isLessThan(LONGEST_WAIT);
        await(what).atMost(LONGEST_WAIT).pollInterval(POLL).pollInSameThread()
                .until(() -> Instant.now().isAfter(moment));
    }
}
