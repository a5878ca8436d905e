package io.flashsale.bootstrap.config;

import io.flashsale.adapter.metrics.Slf4jDeductionLog;
import io.flashsale.application.reservation.port.out.Deduction;
import io.flashsale.application.reservation.port.out.DeductionLogPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.testsupport.LogCapture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** flashsale.reservations.deduction-log as Spring binds it, and the log each mode wires, fed 2,000 attempts. */
class DeductionLogPropertiesTest {

    private static DeductionLogProperties bound(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("flashsale.reservations", DeductionLogProperties.class);
    }

    /** How many of 2,000 attempts the wired log wrote, on the real deduction logger. */
    private static int linesOf(DeductionLogProperties properties) {
        DeductionLogPort log = new UseCaseConfiguration().deductionLog(properties);
        SkuId phone = new SkuId("phone");
        try (LogCapture capture = LogCapture.of(Slf4jDeductionLog.LOGGER)) {
            for (int i = 0; i < 2000; i++) {
                log.deducted(new Deduction(new ActivityId("summer-sale"), new RequestId("k" + i), new BuyerId("alice"),
                        List.of(new ReservationLine(phone, 1)), new ReservationOutcome.SoldOut(phone),
                        Duration.ofMillis(1)));
            }
            return capture.events().size();
        }
    }

    @Test
    void givenNothingSet_thenOneAttemptInAHundredIsLogged() {
        DeductionLogProperties defaults = bound(Map.of());

        assertThat(defaults.deductionLog()).isEqualTo(DeductionLogProperties.Mode.SAMPLED);
        assertThat(defaults.share()).isEqualTo(0.01);
    }

    @Test
    void givenOn_thenEveryAttemptIsLogged() {
        assertThat(linesOf(bound(Map.of("flashsale.reservations.deduction-log", "on")))).isEqualTo(2000);
    }

    @Test
    void givenOff_thenNoAttemptIsLogged() {
        DeductionLogProperties off = bound(Map.of("flashsale.reservations.deduction-log", "off"));

        assertThat(new UseCaseConfiguration().deductionLog(off)).isNotInstanceOf(Slf4jDeductionLog.class);
        assertThat(linesOf(off)).isZero();
    }

    @Test
    void givenSampledAtAQuarter_thenAboutAQuarterOfTheAttemptsAreLogged() {
        int lines = linesOf(bound(Map.of("flashsale.reservations.deduction-log", "sampled",
                "flashsale.reservations.deduction-log-sample-rate", "0.25")));

        // 500 expected; the bounds are more than 10 standard deviations (19.4) away.
        assertThat(lines).isBetween(300, 700);
    }

    @Test
    void givenASampleRateOutsideZeroToOne_thenTheServiceDoesNotStart() {
        assertThatThrownBy(() -> bound(Map.of("flashsale.reservations.deduction-log-sample-rate", "1.5")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("from 0 to 1");
    }
}
