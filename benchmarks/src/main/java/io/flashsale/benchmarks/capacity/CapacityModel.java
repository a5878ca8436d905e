package io.flashsale.benchmarks.capacity;

import java.util.List;
import java.util.Locale;

/**
 * The capacity model of docs/scale.md: from per-unit costs measured on one machine to the parts a crowd needs. An
 * analytic model (the utilisation law: a resource serving X answers a second at D µs of its CPU each is busy X * D µs
 * a second), not a simulation of queues: it tells the throughput each part carries at a chosen utilisation, not the
 * latency near saturation. Every input is a figure of docs/performance.md, docs/order-pipeline.md or an ADR's
 * measurement; the tests check that it reproduces this machine's measured rates before it is trusted to project.
 *
 * <p>Runs on its own: {@code java benchmarks/src/main/java/io/flashsale/benchmarks/capacity/CapacityModel.java}
 * prints the plan of docs/scale.md for the target crowd.
 */
public final class CapacityModel {

    private static final double MICROS_PER_SECOND = 1_000_000;

    /**
     * Attempts of one sale a reserve call carries at most (ADR 68's group commit;
     * {@code RedisStockReservationAdapter.DEFAULT_MAX_BATCH}, which the application uses). Attempts queue while a
     * sale's call is in flight, so the calls of a slice driven to saturation fill up to it.
     */
    public static final int BATCH_BOUND = 64;

    /**
     * The harness's reserve row of 2026-12-06 14:09 UTC ({@code 56fdc26}): 0.22 script calls per answer, every answer
     * a reservation. The relay's acknowledgements count among those calls too, so its reserve calls carried 1 / 0.22
     * attempts or somewhat more.
     */
    static final double HARNESS_ATTEMPTS_PER_CALL = 1 / 0.22;

    /** Redis's instructions a reservation, fitted through the counts in calls of 1 and 16 ({@code 56fdc26}, ADR 108). */
    private static final RedisInstructions COUNTED_HERE = RedisInstructions.fit(546_633, 16, 193_484);

    private CapacityModel() {
    }

    /**
     * What one answer or one reservation costs each part, in µs of one core, and what one database node and one
     * broker partition carry.
     *
     * @param serviceReserve         service CPU per attempt the hot store decides (buyers signed in; a token's first
     *                               verification is counted apart)
     * @param serviceFromMemory      service CPU per attempt answered without Redis (sold out, ended, refused by the
     *                               sale's admission bucket)
     * @param tokenVerification      service CPU per buyer token verified for the first time (a cached one costs a
     *                               look-up, inside the two figures above)
     * @param redisPerReservation    Redis CPU per accepted reservation over its whole life (reserve, relay, settle,
     *                               acknowledge), at the attempts per reserve call planned for
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

    /**
     * Redis's instructions per reservation over its whole life: a reserve call's own, shared by the attempts it
     * carries, plus each attempt's (its part of the call, the relay, the acknowledgement and the settlement).
     */
    public record RedisInstructions(double perCall, double perAttempt) {

        /** The two parts through two counts: in calls of one attempt and in calls of {@code n}. */
        public static RedisInstructions fit(double inCallsOfOne, int n, double inCallsOfN) {
            double perCall = (inCallsOfOne - inCallsOfN) / (1 - 1.0 / n);
            return new RedisInstructions(perCall, inCallsOfOne - perCall);
        }

        public double perReservation(double attemptsPerCall) {
            return perCall / attemptsPerCall + perAttempt;
        }
    }

    /**
     * Redis's CPU per reservation from its instructions, at the instructions a µs of Redis's CPU ran in the harness
     * (what the count leaves out, the kernel's side of each call among it, taken as in proportion).
     */
    public record RedisCost(RedisInstructions instructions, double instructionsPerMicro) {

        /** Calibrated on a harness row: its Redis µs per reservation, in calls of the attempts it made. */
        public static RedisCost calibrated(RedisInstructions instructions, double harnessMicrosPerReservation,
                                           double harnessAttemptsPerCall) {
            return new RedisCost(instructions,
                    instructions.perReservation(harnessAttemptsPerCall) / harnessMicrosPerReservation);
        }

        public double microsPerReservation(double attemptsPerCall) {
            return instructions.perReservation(attemptsPerCall) / instructionsPerMicro;
        }

        /**
         * One sale in {@code slices} slices, one a master, each master held to {@code coreShare} of a core of which
         * it spends {@code idleMicrosPerSecond} with no sale (the cluster bus, the instances' background reads): the
         * reservations a second the masters carry where Redis sets the pace (perf/cluster.sh with REDIS_CPU). Each
         * slice takes an equal share of the buyers, so each master the same share of the sale.
         */
        public double saleRateOnMasters(int slices, double coreShare, double idleMicrosPerSecond,
                                        double attemptsPerCall) {
            return slices * (MICROS_PER_SECOND * coreShare - idleMicrosPerSecond)
                    / microsPerReservation(attemptsPerCall);
        }

        /** One sale in one slice: the reservations a second one Redis core carries at the utilisation. */
        public double saleCapPerCore(double attemptsPerCall, double utilisation) {
            return MICROS_PER_SECOND * utilisation / microsPerReservation(attemptsPerCall);
        }
    }

    /** The service's CPU a crowd needs, in µs a second, by what it spends it on. */
    public record ServiceDemand(double reserveAnswers, double answersFromMemory, double newTokens) {

        public static ServiceDemand of(Crowd crowd, UnitCosts costs) {
            double fromMemory = crowd.attemptsPerSecond() - crowd.acceptedPerSecond();
            return new ServiceDemand(crowd.acceptedPerSecond() * costs.serviceReserve(),
                    fromMemory * costs.serviceFromMemory(),
                    crowd.attemptsPerSecond() * crowd.newTokenShare() * costs.tokenVerification());
        }

        public double total() {
            return reserveAnswers + answersFromMemory + newTokens;
        }
    }

    public static Plan plan(Crowd crowd, UnitCosts costs, Nodes nodes) {
        double serviceMicros = ServiceDemand.of(crowd, costs).total();
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

    /**
     * Redis's cost here: instructions counted by {@code perf/redis-instructions.py} at {@code 56fdc26} (ADR 108) in
     * calls of 1 and 16, calibrated on the harness's 64.8 µs per reservation of 2026-12-06 14:09 UTC.
     */
    public static RedisCost redisMeasuredHere() {
        return RedisCost.calibrated(COUNTED_HERE, 64.8, HARNESS_ATTEMPTS_PER_CALL);
    }

    /**
     * Redis's cost on the masters of perf/cluster.sh held to 3% of a core each (ADR 115; 2026-12-07 13:37-14:21 UTC,
     * the jar of {@code 4d94f55}): the same instructions, at the instructions a µs the sale's master ran in the five
     * runs of one slice, each its CPU less an idle master's over the run's reservations, averaged. A throttled master
     * runs in bursts on a core nothing else uses meanwhile, so it runs more instructions a µs than the harness's Redis,
     * which shares its cores with the service all the time.
     */
    public static RedisCost redisOnHeldMasters() {
        double sum = 0;
        for (HeldMasterRun run : HeldMasterRun.ONE_SLICE) {
            sum += COUNTED_HERE.perReservation(run.attemptsPerCall()) / run.saleMicrosPerReservation();
        }
        return new RedisCost(COUNTED_HERE, sum / HeldMasterRun.ONE_SLICE.size());
    }

    /**
     * A one-slice run {@link #redisOnHeldMasters()} is calibrated on, as perf/cluster.sh printed it: the sale's master's
     * CPU seconds over the window's seconds, the reservations, and the attempts a reserve call.
     */
    record HeldMasterRun(double cpuSeconds, double windowSeconds, double reservations, double attemptsPerCall) {

        /** The share of a core each master was held to. */
        static final double CORE_SHARE = 0.03;
        /**
         * A master holding no sale: the quietest of each one-slice run, 0.08, 0.07, 0.05, 0.05 and 0.08 s over 17 s
         * (the cluster bus, the instances' topology and relay reads), averaged.
         */
        static final double IDLE_MICROS_PER_SECOND = 3_900;
        static final List<HeldMasterRun> ONE_SLICE = List.of(
                new HeldMasterRun(0.49, 17, 9_354, 46.8),
                new HeldMasterRun(0.48, 17, 10_611, 46.1),
                new HeldMasterRun(0.51, 17, 10_582, 61.5),
                new HeldMasterRun(0.52, 17, 11_918, 62.1),
                new HeldMasterRun(0.52, 17, 8_996, 60.0));

        /** The master's CPU less an idle master's over the window, per reservation. */
        double saleMicrosPerReservation() {
            return (cpuSeconds * MICROS_PER_SECOND - IDLE_MICROS_PER_SECOND * windowSeconds) / reservations;
        }
    }

    /**
     * This machine class's figures (2 cores), from docs/performance.md and docs/order-pipeline.md; Redis's at reserve
     * calls of the batch bound.
     */
    public static UnitCosts measuredHere() {
        return measuredHere(BATCH_BOUND);
    }

    /** As {@link #measuredHere()}, with Redis's cost at reserve calls of {@code attemptsPerCall}. */
    public static UnitCosts measuredHere(double attemptsPerCall) {
        return new UnitCosts(228, 27, 493, redisMeasuredHere().microsPerReservation(attemptsPerCall), 58, 5_000,
                2_700, 103);
    }

    public static void main(String[] args) {
        Crowd target = new Crowd(1_000_000, 100_000, 0.1, 10_000_000);
        Nodes nodes = new Nodes(16, 0.6);
        Plan plan = plan(target, measuredHere(), nodes);
        System.out.printf(Locale.ROOT, "crowd %,.0f attempts/s, %,.0f accepted/s, %.0f%% new tokens, %,d units%n",
                target.attemptsPerSecond(), target.acceptedPerSecond(), target.newTokenShare() * 100, target.units());
        System.out.printf(Locale.ROOT, "nodes of %d cores at %.0f%% utilisation; reserve calls of %d attempts%n",
                nodes.coresPerInstance(), nodes.utilisation() * 100, BATCH_BOUND);
        System.out.printf(Locale.ROOT, "| instances | slices (Redis masters) | partitions | database nodes | Redis GB once sold |%n");
        System.out.printf(Locale.ROOT, "| %d | %d | %d | %d | %.1f |%n", plan.instances(), plan.slices(),
                plan.partitions(), plan.databaseNodes(), plan.redisGigabytesSold());
        printServiceDemand(target);
        printRedisBounds(target, nodes);
    }

    private static void printServiceDemand(Crowd target) {
        ServiceDemand service = ServiceDemand.of(target, measuredHere());
        System.out.printf(Locale.ROOT, "service: %.1f cores = %.1f reserve answers + %.1f answers from memory"
                        + " + %.1f new tokens%n", service.total() / MICROS_PER_SECOND,
                service.reserveAnswers() / MICROS_PER_SECOND, service.answersFromMemory() / MICROS_PER_SECOND,
                service.newTokens() / MICROS_PER_SECOND);
    }

    /** Redis at the batch bound and at calls of one attempt: the slices a crowd needs lie between the two. */
    private static void printRedisBounds(Crowd target, Nodes nodes) {
        RedisCost redis = redisMeasuredHere();
        System.out.printf(Locale.ROOT, "Redis: %,.0f instructions a call + %,.0f an attempt, %,.0f a µs in the"
                        + " harness%n", redis.instructions().perCall(), redis.instructions().perAttempt(),
                redis.instructionsPerMicro());
        for (int attempts : new int[] {BATCH_BOUND, 1}) {
            System.out.printf(Locale.ROOT, "calls of %d: %.1f µs a reservation, one sale %,.0f/s a core"
                            + " (%,.0f at %.0f%%), slices %d%n", attempts, redis.microsPerReservation(attempts),
                    redis.saleCapPerCore(attempts, 1.0), redis.saleCapPerCore(attempts, nodes.utilisation()),
                    nodes.utilisation() * 100, plan(target, measuredHere(attempts), nodes).slices());
        }
    }
}
