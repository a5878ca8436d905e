package io.flashsale.adapter.metrics;

import io.flashsale.application.reconciliation.port.out.LostReservationReport;
import io.flashsale.domain.reservation.Reservation;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * What an operator sees of an audit after a Redis restart: {@value #AUDITED}{result=database|dead_letter|kept|lost|
 * unaudited} counts the acknowledged reservations by what became of them ({@code lost}: told RESERVED, and no store
 * holds them: alert on it), and one log line per audit, at ERROR with the lost reservations and their buyers.
 */
public final class LostReservationReports implements Consumer<LostReservationReport> {

    public static final String AUDITED = "flashsale.durability.acknowledged";
    private static final Logger LOG = LoggerFactory.getLogger(LostReservationReports.class);
    private static final int NAMED_IN_LOG = 200;

    private final Counter database;
    private final Counter deadLetter;
    private final Counter kept;
    private final Counter lost;
    private final Counter unaudited;

    public LostReservationReports(MeterRegistry registry) {
        database = counter(registry, "database");
        deadLetter = counter(registry, "dead_letter");
        kept = counter(registry, "kept");
        lost = counter(registry, "lost");
        unaudited = counter(registry, "unaudited");
    }

    private static Counter counter(MeterRegistry registry, String result) {
        return Counter.builder(AUDITED)
                .description("reservations this instance acknowledged before a Redis restart, by what the audit "
                        + "found: in the database, a dead letter, kept by Redis, lost (in no store), or unaudited "
                        + "(older than the journal)")
                .tag("result", result)
                .register(registry);
    }

    @Override
    public void accept(LostReservationReport report) {
        database.increment(report.reachedDatabase());
        deadLetter.increment(report.deadLettered());
        kept.increment(report.keptByHotStore());
        lost.increment(report.lost().size());
        unaudited.increment(report.unaudited());
        String summary = "after Redis restarted (incarnation " + report.incarnation() + "): " + report.audited()
                + " acknowledged reservation(s) audited, " + report.reachedDatabase() + " in the database, "
                + report.deadLettered() + " dead-lettered, " + report.keptByHotStore() + " kept by Redis, "
                + report.lost().size() + " LOST, " + report.unaudited() + " too old for the journal";
        if (report.lost().isEmpty()) {
            LOG.info("Audit {}", summary);
            return;
        }
        LOG.error("Audit {}. Lost (reservationId/buyerId, the buyer was told RESERVED and no order exists{}): {}",
                summary, report.lost().size() > NAMED_IN_LOG ? ", first " + NAMED_IN_LOG : "",
                report.lost().stream().limit(NAMED_IN_LOG).map(LostReservationReports::named)
                        .collect(Collectors.joining(", ")));
    }

    private static String named(Reservation reservation) {
        return reservation.id().value() + "/" + reservation.buyerId().value();
    }
}
