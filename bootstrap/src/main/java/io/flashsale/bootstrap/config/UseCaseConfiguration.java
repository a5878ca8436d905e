package io.flashsale.bootstrap.config;

import io.flashsale.application.port.out.ActivityRepository;
import io.flashsale.application.port.out.IdGenerator;
import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.StockReservationPort;
import io.flashsale.application.service.ActivityService;
import io.flashsale.application.service.ReservationService;
import io.flashsale.bootstrap.id.UuidV7IdGenerator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/** The application services, built by hand so that the core carries no Spring annotation. */
@Configuration(proxyBeanMethods = false)
public class UseCaseConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    IdGenerator idGenerator(Clock clock) {
        return new UuidV7IdGenerator(clock);
    }

    @Bean
    ActivityService activityService(ActivityRepository activities, StockReservationPort stock, IdGenerator ids) {
        return new ActivityService(activities, stock, ids);
    }

    @Bean
    ReservationService reservationService(StockReservationPort stock, ActivityRepository activities,
                                          OrderRepository orders, IdGenerator ids, Clock clock) {
        return new ReservationService(stock, activities, orders, ids, clock);
    }
}
