package io.flashsale.acceptance.steps;

import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.CucumberSpringConfiguration;
import io.flashsale.acceptance.api.ApiAnswer;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The warm-up schedule seen from outside: when does a sale nobody warmed up by hand become ready? */
public class WarmUpSteps {

    private static final Duration POLL = Duration.ofMillis(50);

    private final SaleWorld world;

    public WarmUpSteps(SaleWorld world) {
        this.world = world;
    }

    /** Moves the service's clock to that many seconds before the opening (the schedule then has the sale due soon). */
    @When("the opening is {int} seconds away")
    public void theOpeningIsAway(int seconds) {
        world.clock().advanceTo(world.sale().startsAt().minusSeconds(seconds));
    }

    /**
     * Watches the public view of the sale until it shows the sale loaded: that must happen before the opening, and
     * not earlier than the given seconds before it (the service is configured with a shorter lead).
     */
    @Then("the sale is loaded by itself, at most {int} seconds before it opens")
    public void loadedByItself(int seconds) {
        Instant startsAt = world.sale().startsAt();
        Duration earliest = Duration.ofSeconds(seconds);
        assertThat(earliest).as("the window the feature allows, against the lead the service is given")
                .isGreaterThanOrEqualTo(CucumberSpringConfiguration.WARM_UP_LEAD);
        Optional<Instant> lastSeenUnloaded = Optional.empty();
        Instant seenLoaded = null;
        while (seenLoaded == null && world.clock().instant().isBefore(startsAt)) {
            Instant asked = world.clock().instant();
            if (isLoaded()) {
                seenLoaded = asked;
            } else {
                lastSeenUnloaded = Optional.of(asked);
                pause();
            }
        }
        assertThat(seenLoaded).as("the sale loaded before it opens at %s", startsAt).isNotNull();
        assertThat(lastSeenUnloaded).as("the sale seen not loaded yet, before it was loaded at %s", seenLoaded)
                .hasValueSatisfying(unloaded -> assertThat(unloaded)
                        .as("still not loaded %s before the opening", earliest)
                        .isAfterOrEqualTo(startsAt.minus(earliest)));
    }

    private boolean isLoaded() {
        ApiAnswer shown = world.api().send(world.api().sale(world.sale().id()));
        assertThat(shown.status()).as("the sale's public view: %s", shown.describe()).isEqualTo(200);
        return shown.json().path("warmedUp").asBoolean(false);
    }

    private static void pause() {
        try {
            Thread.sleep(POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while watching the sale", e);
        }
    }
}
