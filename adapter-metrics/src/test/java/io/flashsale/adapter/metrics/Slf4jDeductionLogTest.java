package io.flashsale.adapter.metrics;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.flashsale.application.reservation.port.out.Deduction;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.testsupport.LogCapture;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.stream.DoubleStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The deduction line as logback receives it, captured by a real appender on the deduction logger. */
class Slf4jDeductionLogTest {

    private static final SkuId PHONE = new SkuId("phone");

    private static Deduction deduction(String requestId, List<ReservationLine> lines) {
        return new Deduction(new ActivityId("summer-sale"), new RequestId(requestId), new BuyerId("alice"), lines,
                new ReservationOutcome.SoldOut(PHONE), Duration.ofNanos(1_234_567));
    }

    @Test
    void givenEveryAttemptLogged_thenTheInfoLineCarriesTheRequestTheBuyerTheSkusTheQuantitiesTheOutcomeAndTheTime() {
        try (LogCapture log = LogCapture.of(Slf4jDeductionLog.LOGGER)) {
            new Slf4jDeductionLog(1).deducted(deduction("key-1",
                    List.of(new ReservationLine(PHONE, 1), new ReservationLine(new SkuId("case"), 2))));

            assertThat(log.events()).singleElement().satisfies(event -> {
                assertThat(event.getLevel()).isEqualTo(Level.INFO);
                assertThat(event.getFormattedMessage()).isEqualTo("deduction requestId=key-1 buyer=alice "
                        + "activity=summer-sale sku=phone,case quantity=1,2 outcome=SoldOut elapsedMicros=1234");
            });
        }
    }

    @Test
    void givenOneLine_thenItsSkuAndQuantityStandAlone() {
        try (LogCapture log = LogCapture.of(Slf4jDeductionLog.LOGGER)) {
            new Slf4jDeductionLog(1).deducted(deduction("key-1", List.of(new ReservationLine(PHONE, 3))));

            assertThat(log.events()).singleElement().extracting(ILoggingEvent::getFormattedMessage).asString()
                    .contains(" sku=phone quantity=3 ");
        }
    }

    @Test
    void givenSampled_thenOnlyTheAttemptsWhoseDrawFallsBelowTheShareAreLogged() {
        PrimitiveIterator.OfDouble draws = DoubleStream.of(0.05, 0.5, 0.09, 0.1, 0.99).iterator();
        Slf4jDeductionLog sampled = new Slf4jDeductionLog(0.1, draws::nextDouble);
        try (LogCapture log = LogCapture.of(Slf4jDeductionLog.LOGGER)) {
            for (String key : List.of("k1", "k2", "k3", "k4", "k5")) {
                sampled.deducted(deduction(key, List.of(new ReservationLine(PHONE, 1))));
            }

            assertThat(log.events()).extracting(ILoggingEvent::getFormattedMessage)
                    .map(message -> message.split(" ")[1]).containsExactly("requestId=k1", "requestId=k3");
        }
    }
}
