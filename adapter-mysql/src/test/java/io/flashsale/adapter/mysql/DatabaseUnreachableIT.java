package io.flashsale.adapter.mysql;

import io.flashsale.application.reservation.port.out.FallbackReservationPort;
import io.flashsale.application.sale.model.ActivityAlreadyExistsException;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.testsupport.TcpProxy;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.TransactionSystemException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The database of record out of reach, for real: the adapter talks to MariaDB through a TCP proxy that resets every
 * connection and refuses new ones. Each port then answers {@link StoreUnavailableException} (what the API turns into
 * 503 {@code UNAVAILABLE}), never one of Spring's data-access exceptions; nothing is half done; and once the link
 * heals the same calls work on the same rows. The link can also be cut in the middle of the database path's transaction,
 * after its first statement, so that the transaction cannot even be rolled back (defect 13).
 */
@SpringBootTest(classes = {MysqlAdapterTestApplication.class, DatabaseUnreachableIT.CutInTheTransaction.class})
@Timeout(120)
class DatabaseUnreachableIT {

    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_unreachable");
    private static final TcpProxy LINK = new TcpProxy(TestServices.mariadb().host(), TestServices.mariadb().port());
    private static final Instant AT = Instant.parse("2026-12-01T10:00:00.250Z");
    private static final SkuId SKU = new SkuId("sku-u");
    /** Set, the next lock of a buyer's purchase row by the database path cuts the link once it has answered. */
    private static final AtomicBoolean CUT_AFTER_THE_LOCK = new AtomicBoolean();

    @Autowired
    FallbackReservationPort fallback;
    @Autowired
    MysqlOrderRepository orders;
    @Autowired
    MysqlActivityRepository activities;
    @Autowired
    MysqlSalesFigures figures;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestServices.mariadb().through(LINK.port()).springDatasource(DATABASE).registerIn(registry);
        // A refused connection is waited for this long before the pool gives up (Hikari's default is 30 s).
        registry.add("spring.datasource.hikari.connection-timeout", () -> "1000");
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "3");
    }

    @AfterEach
    void heal() {
        CUT_AFTER_THE_LOCK.set(false);
        LINK.heal();
    }

    @AfterAll
    static void closeLink() {
        LINK.close();
    }

    @Test
    void givenAnOrder_whenTheLinkIsCut_thenPaymentCancellationLookupAndTheDatabasePathAnswerStoreUnavailable() {
        ActivityId sale = sale();
        ReservationRequest first = request(sale, "buyer-1", "r-1");
        assertThat(fallback.reserve(first)).isInstanceOf(ReservationOutcome.Reserved.class);
        ReservationId order = first.id();

        LINK.cut(Duration.ofMinutes(1));

        assertUnavailable(() -> orders.find(order));
        assertUnavailable(() -> orders.markPaid(order, AT.plusSeconds(5)));
        assertUnavailable(() -> orders.closeWithRestore(order, ReservationStatus.CANCELLED, AT.plusSeconds(5)));
        assertUnavailable(() -> fallback.reserve(request(sale, "buyer-2", "r-2")));
        assertUnavailable(() -> fallback.acceptedBefore(request(sale, "buyer-1", "r-1")));
        assertUnavailable(() -> activities.findById(sale));

        LINK.heal();

        assertThat(awaitAnswer(() -> orders.find(order)).orElseThrow().status()).isEqualTo(ReservationStatus.ORDERED);
        assertThat(figures.soldBySku(sale)).as("nothing of the refused calls was done").containsEntry(SKU, 1L);
        assertThat(orders.find(request(sale, "buyer-2", "r-2").id())).isEmpty();
        assertThat(orders.markPaid(order, AT.plusSeconds(6))).isTrue();
        assertThat(orders.find(order).orElseThrow().status()).isEqualTo(ReservationStatus.PAID);
    }

    /**
     * Defect 13: the database path locked the buyer's purchase row, then the link went. The next statement fails on
     * the reset connection, HikariCP swaps it for a closed one, and the rollback fails on that:
     * {@code TransactionSystemException: JDBC rollback failed}. It is an outage (503 {@code UNAVAILABLE}), not a bug
     * (500): the server rolled the transaction back when the connection dropped, and nothing of it stays.
     */
    @Test
    void givenTheLinkCutAfterTheFirstStatementOfTheDatabasePath_whenTheRollbackFails_thenStoreUnavailableAndNothingStays() {
        ActivityId sale = sale();
        ReservationRequest request = request(sale, "buyer-3", "r-3");
        CUT_AFTER_THE_LOCK.set(true);

        assertThatThrownBy(() -> fallback.reserve(request)).isInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("the database did not answer")
                .cause().as("the rollback itself failed").isInstanceOf(TransactionSystemException.class)
                .hasMessageContaining("rollback");
        assertThat(CUT_AFTER_THE_LOCK).as("the cut came after the first statement").isFalse();

        LINK.heal();

        assertThat(awaitAnswer(() -> orders.find(request.id()))).as("nothing was committed").isEmpty();
        assertThat(figures.soldBySku(sale).getOrDefault(SKU, 0L)).isZero();
        assertThat(fallback.reserve(request)).as("the same request, once healed, is decided anew")
                .isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(figures.soldBySku(sale)).containsEntry(SKU, 1L);
    }

    @Test
    void givenAFailureThatIsNotAnOutage_whenItReachesThePort_thenItIsNotDisguisedAsUnavailable() {
        ActivityId sale = sale();

        assertThatThrownBy(() -> activities.add(new Activity(sale, "again", Instant.parse("2026-12-01T09:00:00Z"),
                Instant.parse("2026-12-01T12:00:00Z"), new PurchaseLimit(1), Duration.ofMinutes(15),
                List.of(new ActivityItem(SKU, 5, null, 1)))))
                .isInstanceOf(ActivityAlreadyExistsException.class);
    }

    private static void assertUnavailable(Runnable call) {
        assertThatThrownBy(call::run).isInstanceOf(StoreUnavailableException.class)
                .hasMessageStartingWith("the database did not answer");
    }

    private static <T> T awaitAnswer(Supplier<T> call) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                return call.get();
            } catch (StoreUnavailableException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
            }
        }
    }

    private ActivityId sale() {
        ActivityId id = new ActivityId("un-" + token().substring(0, 16));
        activities.add(new Activity(id, "Unreachable " + id, Instant.parse("2026-12-01T09:00:00Z"),
                Instant.parse("2026-12-01T12:00:00Z"), new PurchaseLimit(2), Duration.ofMinutes(15),
                List.of(new ActivityItem(SKU, 5, null, 1))));
        return id;
    }

    private static ReservationRequest request(ActivityId sale, String buyer, String key) {
        return new ReservationRequest(ReservationId.of(sale, key.replace("-", "") + "0"), new BuyerId(buyer),
                new RequestId(key), List.of(new ReservationLine(SKU, 1)), AT);
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /** Cuts the link right after the database path's first statement has answered, when a test asks for it. */
    @TestConfiguration(proxyBeanMethods = false)
    static class CutInTheTransaction {

        @Bean
        static BeanPostProcessor cutAfterTheLock() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String name) {
                    if (!(bean instanceof FallbackDao dao)) {
                        return bean;
                    }
                    return Proxy.newProxyInstance(FallbackDao.class.getClassLoader(), new Class<?>[]{FallbackDao.class},
                            (proxy, method, arguments) -> {
                                Object answer;
                                try {
                                    answer = method.invoke(dao, arguments);
                                } catch (InvocationTargetException failed) {
                                    throw failed.getCause();
                                }
                                if (method.getName().equals("lockPurchase") && CUT_AFTER_THE_LOCK.compareAndSet(true,
                                        false)) {
                                    LINK.cut(Duration.ofMinutes(1));
                                }
                                return answer;
                            });
                }
            };
        }
    }
}
