package io.flashsale.adapter.web;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Measurement;

import java.util.Collection;
import java.util.Iterator;

/** The operators' pipeline figures from the meters: the first measurement of each matching meter, summed. */
public final class MeterPipelineFigures implements PipelineFigures {

    private final MeterRegistry meters;

    public MeterPipelineFigures(MeterRegistry meters) {
        this.meters = meters;
    }

    @Override
    public Double value(Figure figure) {
        return switch (figure) {
            case ORDERS_PLACED -> sum(meters.find("flashsale.orders").tag("outcome", "placed").meters());
            case EVENTS_RELAYED -> sum(meters.find("flashsale.relay.relayed").meters());
            case CONSUMER_LAG -> sum(meters.find("kafka.consumer.fetch.manager.records.lag.max").meters());
            case OUTBOX_DEPTH -> sum(meters.find("flashsale.outbox.depth").meters());
            case OUTBOX_OLDEST_AGE_SECONDS -> sum(meters.find("flashsale.outbox.oldest.age.seconds").meters());
        };
    }

    private static Double sum(Collection<Meter> found) {
        double total = 0;
        boolean measured = false;
        for (Meter meter : found) {
            Iterator<Measurement> measurements = meter.measure().iterator();
            if (measurements.hasNext()) {
                double value = measurements.next().getValue();
                if (!Double.isNaN(value)) {
                    total += value;
                    measured = true;
                }
            }
        }
        return measured ? total : null;
    }
}
