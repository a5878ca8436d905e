package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.MysqlActivityRepository;
import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.adapter.scheduling.LifecyclePasses;
import io.flashsale.adapter.scheduling.PeriodicLoop;
import io.flashsale.adapter.scheduling.SingleRunners;
import io.flashsale.application.reservation.service.ShortAtHome;
import io.flashsale.application.slice.port.in.FinishTransfersUseCase;
import io.flashsale.application.slice.port.in.RebalanceSlicesUseCase;
import io.flashsale.application.slice.port.in.TransferStockUseCase;
import io.flashsale.application.slice.port.out.SlicePlacementPort;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.application.slice.port.out.StockTransfersPort;
import io.flashsale.application.slice.service.SlicePlacementService;
import io.flashsale.application.slice.service.SliceRebalancer;
import io.flashsale.application.slice.service.StockTransferService;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/**
 * A sale's slices (ADR 109): stock transfers between them, recorded in MySQL first, the borrow of a buyer's home slice
 * that ran short, the rebalancer that keeps each slice's units in step with its buyers' demand, and the sweep that finishes transfers a crash or an outage left unfinished, on one instance at a
 * time ({@link SingleRunners}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TransferProperties.class)
public class SliceConfiguration {

    @Bean
    SliceStockPort sliceStockPort(RedisHotStore redis) {
        return redis.sliceStock();
    }

    @Bean
    SlicePlacementPort slicePlacementPort(RedisHotStore redis) {
        return redis.slicePlacement();
    }

    /** Where a sale's slices sit on the hot store's masters: in the warm-up's and the stock's answers. */
    @Bean
    SlicePlacementService slicePlacementService(MysqlActivityRepository activities, SlicePlacementPort placement) {
        return new SlicePlacementService(activities, placement);
    }

    @Bean
    StockTransferService stockTransferService(MysqlActivityRepository activities, StockTransfersPort transfers,
                                              SliceStockPort slices, Clock clock) {
        return new StockTransferService(activities, activities, transfers, slices, clock);
    }

    @Bean
    SliceRebalancer sliceRebalancer(MysqlActivityRepository activities, SliceStockPort slices,
                                    TransferStockUseCase transfers, Clock clock) {
        return new SliceRebalancer(activities, slices, transfers, clock);
    }

    @Bean
    PeriodicLoop sliceRebalanceLoop(RebalanceSlicesUseCase rebalancer, TransferProperties properties,
                                    SingleRunners singleRunners) {
        return new PeriodicLoop("slice-rebalance", singleRunners.guard("slice-rebalance",
                LifecyclePasses.sliceRebalance(rebalancer), properties.rebalanceInterval()),
                properties.rebalanceInterval(), properties.rebalanceEnabled());
    }

    /** A buyer's home slice short of a SKU borrows from the others before anyone is told it is sold out. */
    @Bean
    ShortAtHome shortAtHome(SliceStockPort slices, TransferStockUseCase transfers, TransferProperties properties) {
        return new ShortAtHome(slices, transfers, properties.tryAgainAfter(), properties.borrowWait());
    }

    @Bean
    PeriodicLoop transferSweepLoop(FinishTransfersUseCase transfers, TransferProperties properties,
                                   SingleRunners singleRunners) {
        return new PeriodicLoop("transfer-sweep", singleRunners.guard("transfer-sweep",
                LifecyclePasses.transferSweep(transfers), properties.sweepInterval()),
                properties.sweepInterval(), properties.sweepEnabled());
    }
}
