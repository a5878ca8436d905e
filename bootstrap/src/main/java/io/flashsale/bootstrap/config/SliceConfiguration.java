package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.MysqlActivityRepository;
import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.adapter.scheduling.LifecyclePasses;
import io.flashsale.adapter.scheduling.PeriodicLoop;
import io.flashsale.adapter.scheduling.SingleRunners;
import io.flashsale.application.slice.port.in.FinishTransfersUseCase;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.application.slice.port.out.StockTransfersPort;
import io.flashsale.application.slice.service.StockTransferService;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/**
 * A sale's slices (ADR 109): stock transfers between them, recorded in MySQL first, and the sweep that finishes those
 * a crash or an outage left unfinished, on one instance at a time ({@link SingleRunners}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TransferProperties.class)
public class SliceConfiguration {

    @Bean
    SliceStockPort sliceStockPort(RedisHotStore redis) {
        return redis.sliceStock();
    }

    @Bean
    StockTransferService stockTransferService(MysqlActivityRepository activities, StockTransfersPort transfers,
                                              SliceStockPort slices, Clock clock) {
        return new StockTransferService(activities, activities, transfers, slices, clock);
    }

    @Bean
    PeriodicLoop transferSweepLoop(FinishTransfersUseCase transfers, TransferProperties properties,
                                   SingleRunners singleRunners) {
        return new PeriodicLoop("transfer-sweep", singleRunners.guard("transfer-sweep",
                LifecyclePasses.transferSweep(transfers), properties.sweepInterval()),
                properties.sweepInterval(), properties.sweepEnabled());
    }
}
