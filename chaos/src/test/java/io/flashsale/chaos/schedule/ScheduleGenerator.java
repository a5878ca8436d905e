package io.flashsale.chaos.schedule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;

/**
 * From a seed, one schedule, always the same one: the sale, the buyers' steps and the faults. Kept short (a few
 * seconds of workload) so that dozens run in one CI build; the faults land inside the workload so they hit work in
 * flight. Service restarts cost the most on a loaded machine, so they are drawn rarely; the long run draws as many.
 */
public final class ScheduleGenerator {

    /** Draw weights: how often each fault kind is chosen. */
    private static final List<Weighted> FAULT_WEIGHTS = List.of(
            new Weighted(FaultKind.REDIS_KILL, 8),
            new Weighted(FaultKind.REDIS_PAUSE, 8),
            new Weighted(FaultKind.REDIS_WIPE, 2),
            new Weighted(FaultKind.BROKER_KILL, 6),
            new Weighted(FaultKind.BROKER_PAUSE, 6),
            new Weighted(FaultKind.SERVICE_KILL, 2),
            new Weighted(FaultKind.SERVICE_PAUSE, 5),
            new Weighted(FaultKind.DB_CUT, 8),
            new Weighted(FaultKind.DB_DELAY, 6),
            new Weighted(FaultKind.DB_BLACK_HOLE, 6),
            new Weighted(FaultKind.REDIS_LINK_CUT, 8),
            new Weighted(FaultKind.REDIS_LINK_DELAY, 6),
            new Weighted(FaultKind.REDIS_LINK_BLACK_HOLE, 6));

    /**
     * What may join a master's failover, with the weights above: faults of the broker, the service and the database
     * link (a cluster has no proxy to Redis, and a second Redis fault would meet a cluster still failing over; a
     * service kill costs a restart).
     */
    private static final Set<FaultKind> FAILOVER_COMPANIONS = EnumSet.of(FaultKind.BROKER_KILL,
            FaultKind.BROKER_PAUSE, FaultKind.SERVICE_PAUSE, FaultKind.DB_CUT, FaultKind.DB_DELAY,
            FaultKind.DB_BLACK_HOLE);

    /** Slices of a sale sold in slices: on a Redis Cluster of 3 masters, one a master. */
    private static final int SLICES = 3;

    private record Weighted(FaultKind kind, int weight) {
    }

    private final int instances;
    /** The fault every schedule starts with, or null when each is drawn. */
    private final FaultKind first;
    private final List<Weighted> weights;
    /** The seeds whose sale is sold in {@link #SLICES} slices. */
    private final LongPredicate inSlices;

    /**
     * Schedules for a system on one Redis; a seed whose remainder by 3 is 2 sells its sale in slices (fixed seeds 2, 5,
     * 17, 20 and 38: a broker kill, a Redis kill, service pauses, a slow Redis link, a wiped Redis).
     */
    public ScheduleGenerator(int instances) {
        this(instances, null, FAULT_WEIGHTS, seed -> Math.floorMod(seed, 3) == 2);
    }

    private ScheduleGenerator(int instances, FaultKind first, List<Weighted> weights, LongPredicate inSlices) {
        this.instances = instances;
        this.first = first;
        this.weights = weights;
        this.inSlices = inSlices;
    }

    /**
     * Schedules for a system on a Redis Cluster: a {@link FaultKind#MASTER_FAILOVER}, now and then with a companion.
     * The sales of even seeds are sold in slices, one on each master, so the failover takes one slice while the others
     * sell on; odd seeds sell in one slot, so the failover takes the whole sale.
     */
    public static ScheduleGenerator failovers(int instances) {
        return new ScheduleGenerator(instances, FaultKind.MASTER_FAILOVER, FAULT_WEIGHTS.stream()
                .filter(weighted -> FAILOVER_COMPANIONS.contains(weighted.kind())).toList(),
                seed -> Math.floorMod(seed, 2) == 0);
    }

    public Schedule generate(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        SaleShape sale = sale(random);
        // Decided by the seed, not drawn: every other schedule's draws stay as they were before slices.
        if (inSlices.test(seed)) {
            sale = sale.inSlices(SLICES);
        }
        long workloadMillis = 2_000 + random.nextLong(2_000);
        int buyers = 6 + random.nextInt(15);
        List<Operation> workload = workload(random, seed, sale, buyers, workloadMillis);
        List<Fault> faults = faults(random, workloadMillis);
        return new Schedule(seed, sale, buyers, workload, faults, workloadMillis);
    }

    private static SaleShape sale(SplittableRandom random) {
        int skuCount = 1 + random.nextInt(3);
        List<SaleShape.Sku> skus = new ArrayList<>();
        for (int i = 0; i < skuCount; i++) {
            skus.add(new SaleShape.Sku("sku-" + i, 3 + random.nextInt(28), 1 + random.nextInt(4),
                    random.nextInt(4) == 0 ? 1 + random.nextInt(4) : 0));
        }
        return new SaleShape(1 + random.nextInt(3), random.nextInt(3) == 0 ? 2 : 900, skus);
    }

    private static List<Operation> workload(SplittableRandom random, long seed, SaleShape sale, int buyers,
                                            long workloadMillis) {
        List<Operation> steps = new ArrayList<>();
        String prefix = "r" + Long.toUnsignedString(seed, 36);
        for (int buyer = 0; buyer < buyers; buyer++) {
            int count = 2 + random.nextInt(7);
            long at = random.nextLong(workloadMillis / 3);
            List<String> requestIds = new ArrayList<>();
            for (int n = 0; n < count && at < workloadMillis; n++) {
                int roll = random.nextInt(100);
                Operation.Kind kind = requestIds.isEmpty() || roll < 55 ? Operation.Kind.RESERVE
                        : roll < 65 ? Operation.Kind.REPEAT
                        : roll < 85 ? Operation.Kind.PAY
                        : Operation.Kind.CANCEL;
                String requestId = switch (kind) {
                    case RESERVE -> prefix + "-" + buyer + "-" + n;
                    case REPEAT -> requestIds.get(random.nextInt(requestIds.size()));
                    default -> null;
                };
                if (kind == Operation.Kind.RESERVE) {
                    requestIds.add(requestId);
                }
                List<Operation.Line> lines = kind == Operation.Kind.RESERVE ? lines(random, sale) : List.of();
                steps.add(new Operation(at, buyer, kind, requestId, lines, random.nextInt(8)));
                at += 50 + random.nextLong(600);
            }
        }
        // A repeat re-sends the lines of the request it repeats: same key, same body, as a retrying client does.
        List<Operation> resolved = new ArrayList<>();
        for (Operation step : steps) {
            if (step.kind() == Operation.Kind.REPEAT) {
                Operation original = steps.stream().filter(s -> s.kind() == Operation.Kind.RESERVE
                        && s.requestId().equals(step.requestId())).findFirst().orElseThrow();
                resolved.add(new Operation(step.atMillis(), step.buyer(), step.kind(), step.requestId(),
                        original.lines(), step.pick()));
            } else {
                resolved.add(step);
            }
        }
        resolved.sort(Comparator.comparingLong(Operation::atMillis));
        return resolved;
    }

    private static List<Operation.Line> lines(SplittableRandom random, SaleShape sale) {
        List<SaleShape.Sku> skus = new ArrayList<>(sale.skus());
        int lineCount = skus.size() > 1 && random.nextInt(10) < 3 ? 2 : 1;
        List<Operation.Line> lines = new ArrayList<>();
        for (int i = 0; i < lineCount; i++) {
            SaleShape.Sku sku = skus.remove(random.nextInt(skus.size()));
            lines.add(new Operation.Line(sku.id(), 1 + (random.nextInt(5) == 0 ? 1 : 0)));
        }
        return lines;
    }

    private List<Fault> faults(SplittableRandom random, long workloadMillis) {
        int count = 1 + (random.nextInt(3) == 0 ? 1 : 0);
        List<Fault> faults = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            FaultKind kind = i == 0 && first != null ? first : draw(random);
            long at = 200 + random.nextLong(workloadMillis / 2);
            long length = 300 + random.nextLong(1_500);
            long lag = 20 + random.nextLong(400);
            faults.add(new Fault(at, length, kind, random.nextInt(instances), lag));
        }
        faults.sort(Comparator.comparingLong(Fault::atMillis));
        return faults;
    }

    private FaultKind draw(SplittableRandom random) {
        int total = weights.stream().mapToInt(Weighted::weight).sum();
        int roll = random.nextInt(total);
        for (Weighted weighted : weights) {
            roll -= weighted.weight();
            if (roll < 0) {
                return weighted.kind();
            }
        }
        throw new IllegalStateException("unreachable");
    }
}
