package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.metrics.OutboxBacklogGauges;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import java.time.Duration;

/**
 * The service's outbox gauges, made on {@link OutboxAgeClock} instead of the wall clock: the service's own bean method
 * is not called, so the gauges are registered once, by this instance. Read at most every 200 ms, so that a scrape a
 * second apart on a clock running five times as fast sees a fresh figure.
 */
@TestConfiguration(proxyBeanMethods = false)
class OutboxAgeClockConfiguration {

    private static final Duration REFRESH = Duration.ofMillis(200);

    @Bean
    static InstantiationAwareBeanPostProcessor outboxGaugesOnTheTestClock(ObjectProvider<ReservationOutboxPort> outbox,
                                                                          ObjectProvider<MeterRegistry> registry) {
        return new InstantiationAwareBeanPostProcessor() {
            @Override
            public Object postProcessBeforeInstantiation(Class<?> beanClass, String beanName) {
                return beanClass == OutboxBacklogGauges.class
                        ? new OutboxBacklogGauges(outbox.getObject(), OutboxAgeClock.INSTANCE, REFRESH,
                                registry.getObject())
                        : null;
            }
        };
    }
}
