package io.flashsale.benchmarks.capacity;

import java.util.Locale;

/**
 * The capacity model of docs/scale.md: from per-unit costs measured on one machine to the parts a crowd needs. An
 * analytic model (the utilisation law: a resource serving X answers a second at D µs of its CPU each is busy X * D µs
 * a second), not a simulation of queues: it tells the throughput each part carries at a chosen utilisation, not the
 * latency near saturation. Every input is a figure of docs/performance.md or docs/order-pipeline.md; the tests check
 * that it reproduces this machine's measured rates before it is trusted to project.
 *
 * <p>Runs on its own: {@code java benchmarks/src/main/java/io/flashsale/benchmarks/capacity/CapacityModel.java}
 * prints the plan of docs/scale.md for the target crowd.
 */
public final class CapacityModel {

    private static final double MICROS_PER_SECOND = 1_000_000;

    private CapacityModel() {
    }

    /**
     * What one answer or one reservation costs each part, in µs of one core, and what one database node and one
     * broker partition carry.
     *
     * @param serviceReserve         service CPU per attempt the hot store decides (measured with the buyer's identity
     *                               from a trusted header, so the token's verification is apart)
     * @param serviceFromMemory      service CPU per attempt answered without Redis (sold out, ended, refused by the
     *                               sale's admission bucket)
     * @param tokenVerification      service CPU per buyer token verified for the first time (a cached one costs a
     *                               look-up, inside the two figures above)
     * @param redisPerReservation    Redis CPU per accepted reservation over its whole life (reserve, relay, settle,
     *                               acknowledge)
     * @param redisPerAnswer         Redis CPU per reserve answer, refused ones included (the reserve call alone)
     * @param ordersPerDatabaseNode  orders one MariaDB node places a second (the pipeline's drain)
     * @param recordsPerPartition    reservation records one topic partition carries a second
     * @param bytesSettled           Redis bytes a reservation keeps once its order is in MySQL
     */
    public record UnitCosts(double serviceReserve, double serviceFromMemory, double tokenVerification,
                            double redisPerReservation, double redisPerAnswer, double ordersPerDatabaseNode,
                            double recordsPerPartition, double bytesSettled) {
    }

    /** The crowd to plan for. {@code newTokenShare}: the share of attempts whose token the service has not seen. */
    public record Crowd(double attemptsPerSecond, double acceptedPerSecond, double newTokenShare, long units) {
    }

    /** How big each part is and how busy it may run. */
    public record Nodes(int coresPerInstance, double utilisation) {
    }

    /** The parts a crowd needs, and what the sale keeps in Redis once sold. */
    public record Plan(int instances, int slices, int partitions, int databaseNodes, double redisGigabytesSold) {
    }

    /** One resource's share of a measured run on a machine where everything shares the same cores. */
    public record SharedMachine(int cores, double machineMicrosPerAnswer) {

        /** The utilisation law on a saturated machine: its cores' µs a second over the µs each answer costs. */
        public double predictedRate() {
            return cores * MICROS_PER_SECOND / machineMicrosPerAnswer;
        }
    }

    public static Plan plan(Crowd crowd, UnitCosts costs, Nodes nodes) {
        double fromMemory = crowd.attemptsPerSecond() - crowd.acceptedPerSecond();
        double serviceMicros = crowd.acceptedPerSecond() * costs.serviceReserve()
                + fromMemory * costs.serviceFromMemory()
                + crowd.attemptsPerSecond() * crowd.newTokenShare() * costs.tokenVerification();
        double instanceMicros = nodes.coresPerInstance() * MICROS_PER_SECOND * nodes.utilisation();
        // A slice is one Redis core (one hash slot's master): it carries what its core can give at the utilisation.
        double sliceMicros = MICROS_PER_SECOND * nodes.utilisation();
        int instances = atLeastOne(serviceMicros / instanceMicros);
        int slices = atLeastOne(crowd.acceptedPerSecond() * costs.redisPerReservation() / sliceMicros);
        int partitions = atLeastOne(crowd.acceptedPerSecond() / (costs.recordsPerPartition() * nodes.utilisation()));
        int databases = atLeastOne(crowd.acceptedPerSecond() / (costs.ordersPerDatabaseNode() * nodes.utilisation()));
        double gigabytes = crowd.units() * costs.bytesSettled() / 1e9;
        return new Plan(instances, slices, Math.max(partitions, instances), databases, gigabytes);
    }

    private static int atLeastOne(double parts) {
        return Math.max(1, (int) Math.ceil(parts - 1e-9));
    }

    /** This machine class's figures (2 cores), from docs/performance.md and docs/order-pipeline.md. */
    public static UnitCosts measuredHere() {
        return new UnitCosts(196, 59, 500, 91.4, 57, 5_000, 2_700, 103);
    }

    public static void main(String[] args) {
        Crowd target = new Crowd(1_000_000, 100_000, 0.1, 10_000_000);
        Nodes nodes = new Nodes(16, 0.6);
        Plan plan = plan(target, measuredHere(), nodes);
        System.out.printf(Locale.ROOT, "crowd %,.0f attempts/s, %,.0f accepted/s, %.0f%% new tokens, %,d units%n",
                target.attemptsPerSecond(), target.acceptedPerSecond(), target.newTokenShare() * 100, target.units());
        System.out.printf(Locale.ROOT, "nodes of %d cores at %.0f%% utilisation%n", nodes.coresPerInstance(),
                nodes.utilisation() * 100);
        System.out.printf(Locale.ROOT, "| instances | slices (Redis masters) | partitions | database nodes | Redis GB once sold |%n");
        System.out.printf(Locale.ROOT, "| %d | %d | %d | %d | %.1f |%n", plan.instances(), plan.slices(),
                plan.partitions(), plan.databaseNodes(), plan.redisGigabytesSold());
    }
}
