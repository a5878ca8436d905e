package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/** The buyers' reads of a sale's live figures: one read of the hot store per sale per moment, however many poll. */
@ExtendWith(MockitoExtension.class)
@Timeout(30)
class RecentStockFiguresTest {

    private static final ActivityId SALE = new ActivityId("sale");
    private static final Duration FRESH_FOR = Duration.ofMillis(250);
    private static final Optional<List<SkuStock>> TEN_LEFT =
            Optional.of(List.of(new SkuStock(new SkuId("phone"), StockLedger.of(10))));

    @Mock
    private StockReservationPort stock;
    @Mock
    private Clock clock;
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2030-01-01T10:00:00Z"));

    @Test
    void givenAThousandReadsWithinAMoment_whenTheyAsk_thenTheStoreIsReadOnceAndAgainWhenTheMomentPasses() {
        when(stock.stock(SALE)).thenReturn(TEN_LEFT);
        RecentStockFigures figures = RecentStockFigures.remembering(stock, FRESH_FOR, clock());

        for (int i = 0; i < 1_000; i++) {
            assertThat(figures.of(SALE)).isEqualTo(TEN_LEFT);
        }
        verify(stock, times(1)).stock(SALE);

        now.set(now.get().plus(FRESH_FOR));
        assertThat(figures.of(SALE)).isEqualTo(TEN_LEFT);
        verify(stock, times(2)).stock(SALE);
    }

    @Test
    void givenReadersOfAStaleEntry_whenTheyAskTogether_thenTheyShareOneReadInFlight() throws Exception {
        var release = new CountDownLatch(1);
        var started = new CountDownLatch(1);
        when(stock.stock(SALE)).thenAnswer(call -> {
            started.countDown();
            assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
            return TEN_LEFT;
        });
        RecentStockFigures figures = RecentStockFigures.remembering(stock, FRESH_FOR, clock());
        ExecutorService readers = Executors.newFixedThreadPool(8);
        try {
            List<Future<Optional<List<SkuStock>>>> reads = new ArrayList<>();
            reads.add(readers.submit(() -> figures.of(SALE)));
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 7; i++) {
                reads.add(readers.submit(() -> figures.of(SALE)));
            }
            Thread.sleep(50);
            release.countDown();
            for (Future<Optional<List<SkuStock>>> read : reads) {
                assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(TEN_LEFT);
            }
        } finally {
            readers.shutdownNow();
        }
        verify(stock, times(1)).stock(SALE);
    }

    @Test
    void givenTheStoreFails_whenBuyersRead_thenTheyGetTheFailureAndTheNextReadAsksAgain() {
        when(stock.stock(SALE)).thenThrow(new StoreUnavailableException("down", null)).thenReturn(TEN_LEFT);
        RecentStockFigures figures = RecentStockFigures.remembering(stock, FRESH_FOR, clock());

        assertThatThrownBy(() -> figures.of(SALE)).isInstanceOf(StoreUnavailableException.class);
        assertThat(figures.of(SALE)).isEqualTo(TEN_LEFT);
        verify(stock, times(2)).stock(SALE);
    }

    @Test
    void givenRememberedFigures_whenTheSaleIsForgotten_thenTheNextReadAsksTheStore() {
        when(stock.stock(SALE)).thenReturn(Optional.empty(), TEN_LEFT);
        RecentStockFigures figures = RecentStockFigures.remembering(stock, FRESH_FOR, clock());
        assertThat(figures.of(SALE)).isEmpty();

        figures.forget(SALE);

        assertThat(figures.of(SALE)).isEqualTo(TEN_LEFT);
    }

    @Test
    void givenNoMemory_whenBuyersRead_thenEachReadAsksTheStore() {
        when(stock.stock(SALE)).thenReturn(TEN_LEFT);
        RecentStockFigures figures = RecentStockFigures.none(stock);

        figures.of(SALE);
        figures.of(SALE);

        verify(stock, times(2)).stock(SALE);
    }

    @Test
    void givenManySalesNobodyReadsAnyMore_whenANewSaleIsRead_thenTheStaleOnesAreDropped() {
        when(stock.stock(org.mockito.ArgumentMatchers.any())).thenReturn(TEN_LEFT);
        RecentStockFigures figures = RecentStockFigures.remembering(stock, FRESH_FOR, clock());
        for (int i = 0; i < RecentStockFigures.MOST_SALES; i++) {
            figures.of(new ActivityId("old-" + i));
        }
        now.set(now.get().plus(FRESH_FOR));

        assertThat(figures.salesRemembered()).isEqualTo(RecentStockFigures.MOST_SALES);
        figures.of(SALE);

        assertThat(figures.salesRemembered()).as("only the sale read now").isEqualTo(1);
    }

    private Clock clock() {
        when(clock.instant()).thenAnswer(call -> now.get());
        return clock;
    }
}
