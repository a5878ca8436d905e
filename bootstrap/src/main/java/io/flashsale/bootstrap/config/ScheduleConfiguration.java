package io.flashsale.bootstrap.config;

import io.flashsale.adapter.scheduling.SingleRunners;
import io.micrometer.core.instrument.MeterRegistry;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The scheduled jobs' locks: the MySQL adapter keeps them, each job's configuration wraps its pass in one. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ScheduleLockProperties.class)
public class ScheduleConfiguration {

    @Bean
    SingleRunners singleRunners(LockProvider jobLockProvider, ScheduleLockProperties lock, MeterRegistry meters) {
        return new SingleRunners(jobLockProvider, lock.atMostFor(), lock::atLeastFor, meters, lock.enabled());
    }
}
