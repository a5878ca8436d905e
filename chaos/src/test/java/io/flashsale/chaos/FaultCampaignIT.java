package io.flashsale.chaos;

import io.flashsale.chaos.check.Violation;
import io.flashsale.chaos.harness.ChaosSystem;
import io.flashsale.chaos.schedule.Fault;
import io.flashsale.chaos.schedule.Schedule;
import io.flashsale.chaos.schedule.ScheduleGenerator;
import io.flashsale.testsupport.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The fault campaign: seeded schedules of faults under a seeded workload against the packaged service, one recorded
 * history per schedule, the invariants checked after quiescence. A fixed set of seeds runs every time, then
 * {@code flashsale.fault.fresh-seeds} fresh ones; {@code -Dflashsale.fault.seed=N} replays schedule N alone
 * ({@code N,M,...}: those schedules). Every
 * seed is printed; a failing schedule prints its seed, its schedule and the part of the history that breaks the rule.
 * Output and every server's log: {@code chaos/target/fault-campaign/}.
 */
class FaultCampaignIT {

    /**
     * Seeds that run on every build: together they draw every fault kind (1: DB_DELAY + REDIS_KILL, 2: BROKER_KILL,
     * 3: DB_BLACK_HOLE, 4: REDIS_LINK_CUT + DB_CUT, 5: BROKER_PAUSE + REDIS_KILL, 6: REDIS_PAUSE, 7: SERVICE_KILL,
     * 17: SERVICE_PAUSE twice, 20: REDIS_LINK_DELAY, 21: REDIS_LINK_CUT + REDIS_LINK_BLACK_HOLE, 38: REDIS_WIPE +
     * DB_CUT), and 4 and 10 found defect 3 of docs/reliability.md.
     */
    static final List<Long> FIXED_SEEDS = List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 10L, 17L, 20L, 21L, 38L);

    /** A round takes 30-45 s here; this much per round only stops a hung campaign. */
    static final Duration BUDGET_PER_ROUND = Duration.ofMinutes(3);
    static final Duration LEAST_BUDGET = Duration.ofMinutes(20);

    /** The budget below stops the campaign; this lifts the module's default timeout (5 minutes) off it. */
    @Test
    @Timeout(value = 6, unit = TimeUnit.HOURS)
    void givenSeededFaultSchedules_whenBuyersReserveThroughThem_thenEveryInvariantHoldsOverTheHistory() {
        Path jar = ServiceProcess.runnableJar();
        assumeTrue(Files.isRegularFile(jar), "the runnable jar " + jar + " is missing: run this module from the root "
                + "reactor (./mvnw -pl chaos -am verify)");
        int instances = Integer.getInteger("flashsale.fault.instances", 2);
        List<Long> seeds = seeds(FIXED_SEEDS, "flashsale.fault.seed", "flashsale.fault.fresh-seeds", 28);
        // Schedules run this many at a time, each on its own sale; a replayed seed runs alone.
        int together = seeds.size() == 1 ? 1 : Integer.getInteger("flashsale.fault.together", 5);
        runWithinBudget("fault-campaign", seeds, together, new ScheduleGenerator(instances),
                work -> new ChaosSystem(work, instances));
    }

    /**
     * Runs the seeds' schedules, {@code together} at a time, on one system, within {@link #budget}; fails when a
     * schedule broke an invariant outside every known gap. Output under {@code target/<directory>/}.
     */
    static void runWithinBudget(String directory, List<Long> seeds, int together, ScheduleGenerator generator,
                                Function<Path, ChaosSystem> systems) {
        Duration budget = budget(seeds.size(), together);
        System.out.printf("[chaos] the campaign's time budget: %s%n", budget);
        assertTimeoutPreemptively(budget, () -> runCampaign(workDirectory(directory), seeds, together, generator,
                systems));
    }

    /**
     * The campaign stops at {@link #BUDGET_PER_ROUND} for each round of schedules, at least {@link #LEAST_BUDGET}: a
     * fixed timeout either cut the long run short (60 minutes stopped it at 415 of 512 schedules) or let a hung CI set
     * wait as long.
     */
    static Duration budget(int schedules, int together) {
        int rounds = (schedules + together - 1) / together;
        Duration scaled = BUDGET_PER_ROUND.multipliedBy(rounds);
        return scaled.compareTo(LEAST_BUDGET) < 0 ? LEAST_BUDGET : scaled;
    }

    private static void runCampaign(Path work, List<Long> seeds, int together, ScheduleGenerator generator,
                                    Function<Path, ChaosSystem> systems) {
        Campaign campaign = new Campaign();
        try (ChaosSystem system = systems.apply(work)) {
            System.out.printf("[chaos] %d schedules, %d at a time, on %d service instances: seeds %s%n",
                    seeds.size(), together, system.instanceCount(), seeds);
            ScheduleRunner runner = new ScheduleRunner(system);
            for (int from = 0; from < seeds.size(); from += together) {
                List<Schedule> round = seeds.subList(from, Math.min(seeds.size(), from + together)).stream()
                        .map(generator::generate).toList();
                round.forEach(schedule -> System.out.println("[chaos] " + schedule.describe()));
                runner.runTogether(round).forEach(campaign::add);
            }
        }
        String summary = campaign.summary();
        System.out.println(summary);
        write(work.resolve("summary.md"), summary);
        assertThat(campaign.unexpected()).as("schedules that broke an invariant outside every known gap (seeds, "
                + "schedules and histories above and in %s)", work).isEmpty();
    }

    /**
     * The fixed seeds and {@code freshProperty} fresh ones, or the seeds {@code replayProperty} names
     * ({@code N,M,...}) alone.
     */
    static List<Long> seeds(List<Long> fixed, String replayProperty, String freshProperty, int defaultFresh) {
        String replay = System.getProperty(replayProperty, "");
        if (!replay.isBlank()) {
            return java.util.Arrays.stream(replay.split(",")).map(String::strip).map(Long::parseLong).toList();
        }
        int fresh = Integer.getInteger(freshProperty, defaultFresh);
        List<Long> seeds = new ArrayList<>(fixed);
        LongStream.generate(() -> ThreadLocalRandom.current().nextLong() >>> 1).limit(fresh).forEach(seeds::add);
        return seeds;
    }

    private static Path workDirectory(String directory) {
        try {
            return Files.createDirectories(Path.of(System.getProperty("basedir", "."), "target", directory)
                    .toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The campaign's tally: the table of docs/reliability.md, and the schedules that failed. */
    static final class Campaign {
        private final List<ScheduleRunner.Outcome> outcomes = new ArrayList<>();
        private final List<String> unexpected = new ArrayList<>();
        private final List<String> knownFailing = new ArrayList<>();

        void add(ScheduleRunner.Outcome outcome) {
            outcomes.add(outcome);
            var verdict = outcome.verdict();
            String line = ("[chaos] seed %d: %s in %d ms (%s), %d requests (%d unknown), %d acknowledged, %d orders, "
                    + "%d lost and %d answered anew in a loss window")
                    .formatted(outcome.schedule().seed(), verdict.passed() ? "passed" : "FAILED", outcome.millis(), outcome.phases(),
                            outcome.requests(), verdict.unknownAnswers(), verdict.acknowledged(), verdict.orders(),
                            verdict.lostInWindow(), verdict.answeredAnewInWindow());
            System.out.println(line);
            if (verdict.passed()) {
                return;
            }
            List<Violation> uncovered = new ArrayList<>();
            List<String> gaps = new ArrayList<>();
            for (Violation violation : verdict.violations()) {
                Optional<KnownGaps.Gap> gap = KnownGaps.covering(outcome.history(), violation);
                gap.ifPresentOrElse(g -> gaps.add(g.name()), () -> uncovered.add(violation));
            }
            StringBuilder report = new StringBuilder("[chaos] seed " + outcome.schedule().seed() + " sale "
                    + outcome.saleId() + "\n  schedule: " + outcome.schedule().describe() + "\n  faults as applied: "
                    + outcome.history().faults());
            verdict.violations().forEach(violation -> report.append("\n  ").append(violation));
            System.out.println(report);
            if (uncovered.isEmpty()) {
                knownFailing.add(outcome.schedule().seed() + " " + gaps);
            } else {
                unexpected.add(report.toString());
            }
        }

        List<String> unexpected() {
            return unexpected;
        }

        String summary() {
            Map<io.flashsale.chaos.schedule.FaultKind, Integer> faults =
                    new EnumMap<>(io.flashsale.chaos.schedule.FaultKind.class);
            Map<Violation.Invariant, Integer> found = new EnumMap<>(Violation.Invariant.class);
            long requests = 0;
            long acknowledged = 0;
            long orders = 0;
            long lost = 0;
            long answeredAnew = 0;
            long notFound = 0;
            long unknown = 0;
            for (ScheduleRunner.Outcome outcome : outcomes) {
                for (Fault fault : outcome.schedule().faults()) {
                    faults.merge(fault.kind(), 1, Integer::sum);
                }
                outcome.verdict().violations().forEach(v -> found.merge(v.invariant(), 1, Integer::sum));
                requests += outcome.requests();
                acknowledged += outcome.verdict().acknowledged();
                orders += outcome.verdict().orders();
                lost += outcome.verdict().lostInWindow();
                answeredAnew += outcome.verdict().answeredAnewInWindow();
                notFound += outcome.verdict().notFoundInWindow();
                unknown += outcome.verdict().unknownAnswers();
            }
            return """
                    | figure | value |
                    | --- | --- |
                    | schedules | %d (passed %d, known-failing %d, failing %d) |
                    | faults by kind | %s |
                    | requests (unknown answers) | %d (%d) |
                    | acknowledged reservations | %d |
                    | orders in MySQL | %d |
                    | lost inside a documented loss window | %d |
                    | request ids answered anew inside a documented loss window (idempotency record lost) | %d |
                    | payments and cancellations answered "not found" for a reservation acknowledged inside such a window | %d |
                    | violations by invariant | %s |
                    | known-failing seeds | %s |
                    """.formatted(outcomes.size(), outcomes.size() - knownFailing.size() - unexpected.size(),
                    knownFailing.size(), unexpected.size(), faults, requests, unknown, acknowledged, orders, lost,
                    answeredAnew, notFound,
                    found.isEmpty() ? "none" : found, knownFailing.isEmpty() ? "none" : knownFailing);
        }
    }
}
