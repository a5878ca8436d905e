package io.flashsale.acceptance.steps;

import io.cucumber.java.After;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.flashsale.acceptance.inspect.HotStore;
import io.flashsale.adapter.scheduling.PeriodicLoop;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The slices of a sale in slices (ADR 109) as the fast store holds them: what one slice still offers, and the
 * rebalancer, which moves units between the slices toward demand by itself, held off for a scenario that needs a
 * slice to stay as its buyers left it.
 */
public class SliceSteps {

    private static final String REBALANCE_LOOP = "sliceRebalanceLoop";

    private final SaleWorld world;
    private final HotStore hotStore;
    private final PeriodicLoop rebalancer;
    private boolean rebalancerHeld;

    public SliceSteps(SaleWorld world, HotStore hotStore, ApplicationContext context) {
        this.world = world;
        this.hotStore = hotStore;
        this.rebalancer = context.getBean(REBALANCE_LOOP, PeriodicLoop.class);
    }

    /** Returns once a pass under way has finished: from then on only the buyers and the operators move units. */
    @Given("the shop has stopped moving stock between the slices by itself")
    public void holdRebalancer() {
        rebalancer.stop();
        assertThat(rebalancer.isRunning()).as("the slice rebalancer stopped").isFalse();
        rebalancerHeld = true;
    }

    @Then("slice {int} of the sale has no {product} left")
    public void sliceHasNoneLeft(int slice, String skuId) {
        SaleSlice one = new SaleSlice(new ActivityId(world.sale().id()), slice,
                new SaleSlices(world.sale().slices().orElseThrow(
                        () -> new AssertionError("the scenario's sale is not split into slices"))));
        assertThat(hotStore.availableOf(one, skuId)).as("%s available in slice %s", skuId, slice).isZero();
    }

    @After
    public void releaseRebalancer() {
        if (rebalancerHeld) {
            rebalancer.start();
            rebalancerHeld = false;
        }
    }
}
