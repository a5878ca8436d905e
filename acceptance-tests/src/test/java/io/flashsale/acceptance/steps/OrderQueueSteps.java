package io.flashsale.acceptance.steps;

import io.cucumber.java.After;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.flashsale.acceptance.CucumberSpringConfiguration;
import io.flashsale.acceptance.api.ApiAnswer;
import io.flashsale.acceptance.inspect.HotStore;
import io.flashsale.adapter.kafka.ReservationOrderListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order queue (Kafka's reservations topic) and the shop reading it (the order consumer): a scenario stops the
 * consumer so that announcements wait in the queue beyond the consumer group's committed offset, as a lagging consumer
 * leaves them, and starts it again. The relay keeps publishing meanwhile.
 */
public class OrderQueueSteps {

    private static final Duration POLL = Duration.ofMillis(200);

    private final SaleWorld world;
    private final HotStore hotStore;
    private final KafkaListenerEndpointRegistry listeners;
    private boolean stopped;
    private ApiAnswer loadedByHand;

    public OrderQueueSteps(SaleWorld world, HotStore hotStore, KafkaListenerEndpointRegistry listeners) {
        this.world = world;
        this.hotStore = hotStore;
        this.listeners = listeners;
    }

    private MessageListenerContainer consumer() {
        return listeners.getListenerContainer(ReservationOrderListener.LISTENER_ID);
    }

    @Given("the shop has stopped reading the order queue for a while")
    public void stopReading() {
        consumer().stop();
        assertThat(consumer().isRunning()).as("the order consumer stopped").isFalse();
        stopped = true;
    }

    @When("the shop reads the order queue again")
    public void readAgain() {
        consumer().start();
        stopped = false;
    }

    /** Each accepted reservation's announcement is in Kafka: the relay recorded where the broker stored it. */
    @Given("within {int} seconds every accepted reservation is waiting in the order queue")
    public void waitingInTheQueue(int seconds) throws InterruptedException {
        Map<String, String> accepted = world.acceptedReservations();
        assertThat(accepted).as("accepted reservations").isNotEmpty();
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        for (String reservation : accepted.keySet()) {
            while (hotStore.positionOf(world.sale().id(), reservation).isEmpty()) {
                assertThat(System.nanoTime()).as("%s published to the order queue within %s s", reservation, seconds)
                        .isLessThan(deadline);
                Thread.sleep(POLL.toMillis());
            }
        }
    }

    /** Past the grace period by which an older reconciliation took a queued announcement for lost. */
    @Given("they have waited there longer than a reconciliation's grace period")
    public void waitedPastTheGrace() throws InterruptedException {
        Thread.sleep(CucumberSpringConfiguration.RECONCILIATION_GRACE.plusMillis(500).toMillis());
    }

    @When("the operator loads the sale into the fast store by hand")
    public void loadByHand() {
        loadedByHand = world.api().send(world.api().warmUp(world.sale().id()));
    }

    @Then("loading the sale by hand is refused because the sale has reservations")
    public void loadingRefused() {
        assertThat(loadedByHand).as("a warm-up by hand").isNotNull();
        assertThat(loadedByHand.status()).as("loading by hand: %s", loadedByHand.describe()).isEqualTo(409);
        assertThat(loadedByHand.code()).as("loading by hand: %s", loadedByHand.describe())
                .isEqualTo("SALE_HAS_RESERVATIONS");
    }

    /** A scenario that failed while the consumer was stopped must not leave the next ones without orders. */
    @After
    public void readAgainIfStopped() {
        if (stopped) {
            readAgain();
        }
    }
}
