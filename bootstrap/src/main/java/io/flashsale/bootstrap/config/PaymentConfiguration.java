package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.CompleteProblemWriter;
import io.flashsale.adapter.web.PaymentNotificationFilter;
import io.flashsale.adapter.web.security.NotificationSignature;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.ProviderPaymentsPort;
import io.flashsale.application.order.service.ProviderPaymentService;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import java.time.Clock;
import java.util.Optional;

/** Payments confirmed by the payment provider's signed notifications (ADR 72), and whether buyers may confirm. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PaymentProperties.class)
public class PaymentConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(PaymentConfiguration.class);

    @Bean
    ProviderPaymentService providerPaymentService(OrderLookupPort orders, ProviderPaymentsPort payments,
                                                  HeldReservationsPort held, ReservationTransitionsPort moves,
                                                  ReservationAliasPort aliases,
                                                  Clock clock) {
        return new ProviderPaymentService(orders, payments, held, moves, aliases, clock);
    }

    /** After the body limit, so a notification is read at most that far. */
    @Bean
    FilterRegistrationBean<PaymentNotificationFilter> paymentNotificationFilter(PaymentProperties payment, Clock clock,
                                                                                CompleteProblemWriter problems) {
        Optional<NotificationSignature> signature = Optional.empty();
        if (payment.hasNotificationSecret()) {
            signature = Optional.of(new NotificationSignature(payment.notificationSecret(),
                    payment.signatureTolerance(), clock));
        } else {
            LOG.warn("No payment notification secret configured (flashsale.payment.notification-secret / "
                    + "FLASHSALE_PAYMENT_NOTIFICATION_SECRET): payment notifications are refused with 503");
        }
        if (payment.buyerConfirms()) {
            LOG.warn("flashsale.payment.buyer-confirms=true: buyers confirm their own payments (demo and tests only)");
        }
        var registration = new FilterRegistrationBean<>(new PaymentNotificationFilter(signature, problems));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        return registration;
    }
}
