package io.flashsale.benchmarks.capacity;

import io.flashsale.benchmarks.capacity.CapacityModel.Crowd;
import io.flashsale.benchmarks.capacity.CapacityModel.Nodes;
import io.flashsale.benchmarks.capacity.CapacityModel.Plan;
import io.flashsale.benchmarks.capacity.CapacityModel.SharedMachine;
import io.flashsale.benchmarks.capacity.CapacityModel.UnitCosts;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

class CapacityModelTest {

    /**
     * The harness's rows of docs/performance.md (2-core machine, everything on it): the rate the model predicts from
     * the CPU each answer cost the machine is the rate measured, within 20%, so the per-answer costs explain the rates.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "reserve (trusted header; 9377f5b), 292, 7094",
            "sold-out (trusted header; 9377f5b), 91, 23050",
            "ceiling (trusted header; 9377f5b), 91, 22881",
            "reserve (JWT with every token new; 9377f5b), 1982, 1094",
            "sold-out (JWT with every token new; 9377f5b), 585, 3626",
            "reserve (c2342cd), 210, 8530",
            "keyed sold-out (c2342cd), 53, 37701"})
    void givenAMeasuredRowsCostPerAnswer_whenTheModelPredictsItsRate_thenItIsTheMeasuredRateWithin20Percent(
            String row, double machineMicrosPerAnswer, double measuredRate) {
        double predicted = new SharedMachine(2, machineMicrosPerAnswer).predictedRate();

        assertThat(predicted).as(row).isCloseTo(measuredRate, withinPercentage(20));
    }

    @Test
    void givenTheTargetCrowd_whenPlanned_thenEachPartIsItsDemandOverWhatOneCarriesAtTheUtilisation() {
        Crowd crowd = new Crowd(1_000_000, 100_000, 0.1, 10_000_000);
        UnitCosts costs = CapacityModel.measuredHere();

        Plan plan = CapacityModel.plan(crowd, costs, new Nodes(16, 0.6));

        // service: 100,000 x 196 + 900,000 x 59 + 100,000 new tokens x 500 = 122.7 s of CPU a second over 9.6 cores
        assertThat(plan.instances()).isEqualTo(13);
        // Redis: 100,000 x 91.4 µs = 9.14 cores over 0.6 of one core each
        assertThat(plan.slices()).isEqualTo(16);
        // broker: 100,000 records over 2,700 x 0.6 a partition
        assertThat(plan.partitions()).isEqualTo(62);
        // database: 100,000 orders over 5,000 x 0.6 a node
        assertThat(plan.databaseNodes()).isEqualTo(34);
        assertThat(plan.redisGigabytesSold()).isCloseTo(1.03, within(0.01));
    }

    @Test
    void givenOneSliceAtAFullCore_whenTheIssuesFigureOf84MicrosIsUsed_thenASaleIsCappedNear12000ASecond() {
        UnitCosts before = new UnitCosts(171, 59, 0, 84, 64, 5_000, 2_700, 920);
        Nodes fullCore = new Nodes(2, 1.0);

        assertThat(CapacityModel.plan(new Crowd(11_900, 11_900, 0, 1), before, fullCore).slices()).isEqualTo(1);
        assertThat(CapacityModel.plan(new Crowd(12_000, 12_000, 0, 1), before, fullCore).slices()).isEqualTo(2);
    }

    @Test
    void givenTwiceTheAcceptedReservations_whenPlanned_thenNoPartShrinksAndTheSlicesAtLeastDouble() {
        UnitCosts costs = CapacityModel.measuredHere();
        Nodes nodes = new Nodes(16, 0.6);
        Plan once = CapacityModel.plan(new Crowd(500_000, 50_000, 0.1, 5_000_000), costs, nodes);
        Plan twice = CapacityModel.plan(new Crowd(1_000_000, 100_000, 0.1, 10_000_000), costs, nodes);

        assertThat(twice.slices()).isGreaterThanOrEqualTo(2 * once.slices() - 1);
        assertThat(twice.instances()).isGreaterThanOrEqualTo(once.instances());
        assertThat(twice.partitions()).isGreaterThanOrEqualTo(once.partitions());
        assertThat(twice.databaseNodes()).isGreaterThanOrEqualTo(once.databaseNodes());
    }

    @Test
    void givenMoreInstancesThanPartitions_whenPlanned_thenEveryInstanceGetsAPartition() {
        UnitCosts costs = new UnitCosts(196, 59, 500, 91.4, 57, 5_000, 1_000_000, 149);

        Plan plan = CapacityModel.plan(new Crowd(1_000_000, 1_000, 1.0, 1_000), costs, new Nodes(2, 0.6));

        assertThat(plan.partitions()).isEqualTo(plan.instances()).isGreaterThan(1);
    }
}
