package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.port.out.LostReservationReport;
import io.flashsale.application.reconciliation.port.out.PipelineMark;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.SettledReservationsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * After the hot store restarted (its incarnation, Redis's {@code run_id}, changed), finds the reservations this
 * instance told a buyer RESERVED that neither store holds any more: Redis lost them before their event left the
 * outbox, so no order will ever exist. They are reported (a {@link LostReservationReport} to the listener: ids and
 * buyers, for an operator to contact) and counted, never silently dropped.
 * <p>
 * The audit waits until everything that was in flight has landed, as the rebuild's gate does (ADR 30): the outboxes of
 * the journal's sales drained, then the order consumer at the end offsets of the reservations topic taken after that.
 * Then each journal entry since the last audit is, in this order: in the database (it reached MySQL: reconciliation
 * or the rebuild repairs Redis from it), a dead letter (it waits for an operator's replay), still held by the hot store
 * (it survived the restart), or lost. One batch of primary-key reads per 500 entries, once per restart, on each
 * instance for its own journal: no instance audits another's acknowledgements.
 * <p>
 * Then each sale of the audited entries is reconciled at once, not at the schedule's next pass (a minute): a Redis
 * that restarted from an AOF kept the sale but may have lost the last second of its writes, among them reservations
 * whose events had already left for Kafka. Their orders are in MySQL now (the audit waited for them), Redis still
 * offers their units, and until a reconciliation takes MySQL's figures it would tell buyers RESERVED for units the
 * database no longer has (docs/reliability.md, defect 16).
 * <p>
 * One pass per call, from one background thread.
 */
public final class LostReservationAudit {

    private static final System.Logger LOG = System.getLogger(LostReservationAudit.class.getName());
    private static final long LOG_WAIT_EVERY_NANOS = Duration.ofSeconds(30).toNanos();

    private final AcknowledgementJournal journal;
    private final Supplier<String> incarnation;
    private final RelayedEventsPort relayed;
    private final PipelinePositionPort pipeline;
    private final SettledReservationsPort settled;
    private final HeldReservationsPort hotStore;
    private final Consumer<LostReservationReport> reports;
    private final ReconcileActivityUseCase reconciliations;
    private final Clock clock;

    private String known;
    private long auditedUpTo;
    private Pending pending;
    private long lastWaitLogged = System.nanoTime() - LOG_WAIT_EVERY_NANOS;
    private volatile LostReservationReport last;

    /**
     * @param incarnation the hot store's current incarnation; throws while it cannot be asked
     * @param relayed     {@link RelayedEventsPort#NONE}: no view of the outbox (every one reads drained), only the
     *                    broker is waited for
     * @param hotStore    the hot store itself (not a failover in front of it)
     * @param reconciliations what each audited sale is reconciled with once the audit finished
     */
    public LostReservationAudit(AcknowledgementJournal journal, Supplier<String> incarnation,
                                RelayedEventsPort relayed, PipelinePositionPort pipeline,
                                SettledReservationsPort settled, HeldReservationsPort hotStore,
                                Consumer<LostReservationReport> reports, ReconcileActivityUseCase reconciliations,
                                Clock clock) {
        this.journal = journal;
        this.incarnation = incarnation;
        this.relayed = Objects.requireNonNull(relayed, "relayed");
        this.pipeline = pipeline;
        this.settled = settled;
        this.hotStore = hotStore;
        this.reports = reports;
        this.reconciliations = reconciliations;
        this.clock = clock;
    }

    /** The last audit's report, if any audit finished. */
    public LostReservationReport lastReport() {
        return last;
    }

    /** The hot store's incarnation as the last pass saw it; null before it first answered. */
    public synchronized String incarnationSeen() {
        return known;
    }

    /** True while a restart was seen and its audit waits for the pipeline. */
    public synchronized boolean auditPending() {
        return pending != null;
    }

    /** One pass: notices a restart, or moves a pending audit on. True when an audit finished. */
    public synchronized boolean run() {
        String now;
        try {
            now = incarnation.get();
        } catch (RuntimeException unreachable) {
            return false;
        }
        if (known == null) {
            known = now;
            return false;
        }
        if (!now.equals(known)) {
            known = now;
            // A second restart before the first audit finished: one audit covers both, after the later one.
            pending = new Pending(now, pending == null ? auditedUpTo : pending.from, journal.written());
            LOG.log(Level.WARNING, "The hot store restarted (incarnation {0}): auditing the {1} reservation(s) this"
                    + " instance acknowledged since the last audit once the pipeline has landed", now,
                    pending.to - pending.from);
        }
        return pending != null && finish(pending);
    }

    private boolean finish(Pending audit) {
        List<Reservation> entries = journal.between(audit.from, audit.to);
        Set<ActivityId> activities = entries.stream().map(Reservation::activityId).collect(Collectors.toSet());
        for (ActivityId activity : activities) {
            if (!relayed.outboxDrained(activity)) {
                waiting("the outbox of " + activity.value() + " to be relayed");
                return false;
            }
        }
        if (audit.mark == null) {
            audit.mark = pipeline.ends();
        }
        PipelineMark consumed = pipeline.consumed();
        if (!consumed.reached(audit.mark)) {
            waiting("the order consumer to read " + consumed.behind(audit.mark) + " more event(s)");
            return false;
        }
        Set<ReservationId> unsettled = settled.unsettled(entries.stream().map(Reservation::id).toList());
        Set<ReservationId> deadLettered = unsettled.isEmpty() ? Set.of() : pipeline.deadLettered(unsettled);
        long kept = 0;
        List<Reservation> lost = new ArrayList<>();
        for (Reservation entry : entries) {
            if (!unsettled.contains(entry.id()) || deadLettered.contains(entry.id())) {
                continue;
            }
            if (hotStore.findReservation(entry.id()).isPresent()) {
                kept++;
            } else {
                lost.add(entry);
            }
        }
        LostReservationReport report = new LostReservationReport(audit.incarnation, clock.instant(), entries.size(),
                (audit.to - audit.from) - entries.size(), entries.size() - unsettled.size(), deadLettered.size(), kept,
                lost);
        auditedUpTo = audit.to;
        pending = null;
        last = report;
        reports.accept(report);
        activities.forEach(this::reconcile);
        return true;
    }

    /** A sale that cannot be reconciled now (gone, archived, a store not answering) is the schedule's next pass's. */
    private void reconcile(ActivityId activityId) {
        try {
            reconciliations.reconcile(activityId);
        } catch (RuntimeException notNow) {
            LOG.log(Level.WARNING, "Sale {0} not reconciled after the hot store''s restart ({1}); the reconciliation"
                    + " schedule takes it", activityId.value(), notNow.toString());
        }
    }

    private void waiting(String what) {
        long now = System.nanoTime();
        if (now - lastWaitLogged >= LOG_WAIT_EVERY_NANOS) {
            lastWaitLogged = now;
            LOG.log(Level.INFO, "The audit of acknowledged reservations after a hot-store restart waits for " + what);
        }
    }

    private static final class Pending {
        final String incarnation;
        final long from;
        final long to;
        PipelineMark mark;

        Pending(String incarnation, long from, long to) {
            this.incarnation = incarnation;
            this.from = from;
            this.to = to;
        }
    }
}
