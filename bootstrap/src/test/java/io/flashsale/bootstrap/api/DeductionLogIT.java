package io.flashsale.bootstrap.api;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Logger;
import io.flashsale.adapter.metrics.Slf4jDeductionLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.TestPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deduction log as the service runs it (ADR 0087): configured by logback-spring.xml, each attempt the hot store
 * answered reaches the console through the asynchronous appender, on a worker thread, so the test waits for it.
 */
@ExtendWith(OutputCaptureExtension.class)
@TestPropertySource(properties = "flashsale.reservations.deduction-log=on")
@Timeout(120)
class DeductionLogIT extends ApiTestBase {

    @Test
    void givenTheLogOn_whenABuyerReservesTwoSkus_thenOneConsoleLineCarriesEveryField(CapturedOutput output)
            throws InterruptedException {
        String id = openSale(5, item("sku-a", 10), item("sku-b", 10));

        Reply reply = reserve(id, "alice", lines("deduction-it-1", line("sku-a", 1), line("sku-b", 2)));

        assertThat(reply.status()).as(reply.body()).isEqualTo(202);
        assertThat(lineWith(output, "requestId=deduction-it-1 ")).hasValueSatisfying(line -> assertThat(line)
                .contains(" INFO ", Slf4jDeductionLog.LOGGER, " buyer=alice ", " activity=" + id + " ",
                        " sku=sku-a,sku-b ", " quantity=1,2 ", " outcome=Reserved ")
                .containsPattern("elapsedMicros=\\d+$"));
    }

    @Test
    void givenASoldOutSku_whenABuyerAsks_thenTheRefusalIsLoggedWithItsOutcome(CapturedOutput output)
            throws InterruptedException {
        String id = openSale(5, item("sku-a", 1));
        reserve(id, "alice", lines(null, line("sku-a", 1)));

        Reply refused = reserve(id, "bob", lines("deduction-it-2", line("sku-a", 1)));

        assertThat(refused.status()).as(refused.body()).isEqualTo(409);
        assertThat(lineWith(output, "requestId=deduction-it-2 ")).hasValueSatisfying(line -> assertThat(line)
                .contains(" buyer=bob ", " outcome=SoldOut "));
    }

    @Test
    void theDeductionLoggerWritesOnlyThroughABoundedAsynchronousAppenderThatNeverBlocks() {
        Logger logger = (Logger) LoggerFactory.getLogger(Slf4jDeductionLog.LOGGER);

        assertThat(logger.isAdditive()).isFalse();
        assertThat(logger.getAppender("DEDUCTIONS")).isInstanceOfSatisfying(AsyncAppender.class, async -> {
            assertThat(async.isNeverBlock()).isTrue();
            assertThat(async.getQueueSize()).isEqualTo(16384);
            assertThat(async.getDiscardingThreshold()).isZero();
            assertThat(async.getAppender("CONSOLE")).isNotNull();
        });
    }

    /** The console line containing {@code text}, once the appender's worker wrote it (at most 10 s). */
    private static Optional<String> lineWith(CapturedOutput output, String text) throws InterruptedException {
        Instant giveUp = Instant.now().plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(giveUp)) {
            Optional<String> line = output.getOut().lines().filter(candidate -> candidate.contains(text)).findFirst();
            if (line.isPresent()) {
                return line;
            }
            Thread.sleep(50);
        }
        return Optional.empty();
    }
}
