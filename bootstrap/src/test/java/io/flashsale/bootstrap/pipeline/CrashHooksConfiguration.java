package io.flashsale.bootstrap.pipeline;

import io.flashsale.application.order.port.out.OrderPlacementPort;
import io.flashsale.application.order.service.BatchOrderService;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

/** The order consumer gets the real use case behind a switch that can make it crash after the commit. */
@TestConfiguration(proxyBeanMethods = false)
class CrashHooksConfiguration {

    @Bean
    @Primary
    CrashingPlaceOrder crashingPlaceOrder(BatchOrderService batchOrderService, OrderPlacementPort orders,
                                          ObjectProvider<KafkaListenerEndpointRegistry> listeners) {
        return new CrashingPlaceOrder(batchOrderService, orders, listeners);
    }
}
