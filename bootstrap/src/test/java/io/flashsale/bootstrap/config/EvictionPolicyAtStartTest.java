package io.flashsale.bootstrap.config;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.flashsale.application.sale.port.out.NodeEvictionPolicy;
import io.flashsale.application.sale.service.EvictionPolicyGuard;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.testsupport.LogCapture;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The start-up reading of Redis's eviction policy: one line that says what is wrong and how to fix it. */
class EvictionPolicyAtStartTest {

    @Test
    void givenAllkeysLru_whenTheServiceStarts_thenAnErrorLineNamesTheNodeThePolicyAndTheFix() throws Exception {
        EvictionPolicyGuard guard = new EvictionPolicyGuard(
                () -> List.of(new NodeEvictionPolicy("10.0.0.7:6379", "allkeys-lru")), Clock.systemUTC(),
                Duration.ofSeconds(10));

        List<ILoggingEvent> lines = runAtStart(guard);

        assertThat(lines).singleElement().satisfies(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.ERROR);
            assertThat(line.getFormattedMessage()).contains("allkeys-lru on 10.0.0.7:6379")
                    .contains("CONFIG SET maxmemory-policy noeviction").contains("readiness is DOWN");
        });
        assertThat(guard.current().mayEvictSaleKeys()).as("the reading kept for readiness").isTrue();
    }

    @Test
    void givenNoeviction_whenTheServiceStarts_thenAnInfoLine() throws Exception {
        EvictionPolicyGuard guard = new EvictionPolicyGuard(
                () -> List.of(new NodeEvictionPolicy("10.0.0.7:6379", "noeviction")), Clock.systemUTC(),
                Duration.ofSeconds(10));

        assertThat(runAtStart(guard)).singleElement().extracting(ILoggingEvent::getLevel).isEqualTo(Level.INFO);
    }

    @Test
    void givenRedisOutOfReach_whenTheServiceStarts_thenItStartsWithAWarningAndReadinessReadsLater() throws Exception {
        EvictionPolicyGuard guard = new EvictionPolicyGuard(() -> {
            throw new StoreUnavailableException("connection refused", null);
        }, Clock.systemUTC(), Duration.ofSeconds(10));

        assertThat(runAtStart(guard)).singleElement().satisfies(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.WARN);
            assertThat(line.getFormattedMessage()).contains("not read at start");
        });
    }

    private static List<ILoggingEvent> runAtStart(EvictionPolicyGuard guard) throws Exception {
        try (LogCapture log = LogCapture.of(EvictionPolicyConfiguration.class)) {
            new EvictionPolicyConfiguration().evictionPolicyAtStart(guard).run(null);
            return log.events();
        }
    }
}
