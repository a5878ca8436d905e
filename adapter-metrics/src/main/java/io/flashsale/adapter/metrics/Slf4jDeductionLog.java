package io.flashsale.adapter.metrics;

import io.flashsale.application.reservation.port.out.Deduction;
import io.flashsale.application.reservation.port.out.DeductionLogPort;
import io.flashsale.domain.reservation.ReservationLine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import java.util.function.Function;

/**
 * One INFO line on {@value #LOGGER} per attempt the hot store answered, or per sampled one (ADR 0087):
 * {@code deduction requestId=.. buyer=.. activity=.. sku=a,b quantity=1,2 outcome=Reserved elapsedMicros=..}. The
 * logger's appender is asynchronous (logback-spring.xml): the request thread formats the line and queues it.
 */
public final class Slf4jDeductionLog implements DeductionLogPort {

    public static final String LOGGER = "flashsale.deductions";

    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    private final double share;
    private final DoubleSupplier draw;

    /** @param share the share of attempts logged, from 0 to 1 */
    public Slf4jDeductionLog(double share) {
        this(share, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** @param draw a number in [0, 1) per attempt: the attempt is logged when it is below {@code share} */
    Slf4jDeductionLog(double share, DoubleSupplier draw) {
        this.share = share;
        this.draw = draw;
    }

    @Override
    public void deducted(Deduction deduction) {
        if (share < 1 && draw.getAsDouble() >= share || !LOG.isInfoEnabled()) {
            return;
        }
        List<ReservationLine> lines = deduction.lines();
        LOG.info("deduction requestId={} buyer={} activity={} sku={} quantity={} outcome={} elapsedMicros={}",
                deduction.requestId().value(), deduction.buyerId().value(), deduction.activityId().value(),
                joined(lines, line -> line.skuId().value()), joined(lines, ReservationLine::quantity), deduction.outcome().getClass().getSimpleName(),
                TimeUnit.NANOSECONDS.toMicros(deduction.elapsed().toNanos()));
    }

    /** The lines' values, comma-separated: a single line's value as it is (the usual case, no text built). */
    private static Object joined(List<ReservationLine> lines, Function<ReservationLine, Object> value) {
        if (lines.size() == 1) {
            return value.apply(lines.getFirst());
        }
        StringBuilder text = new StringBuilder();
        for (ReservationLine line : lines) {
            text.append(text.isEmpty() ? "" : ",").append(value.apply(line));
        }
        return text.toString();
    }
}
