package io.flashsale.bootstrap.config.archfixture;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Breaks the rules on purpose: a business decision kept beside the wiring, and one hidden inside a configuration. */
public final class CheckoutRounding {

    public long roundedUp(long units, long step) {
        return (units + step - 1) / step * step;
    }

    @Configuration(proxyBeanMethods = false)
    public static class Wiring {

        @Bean
        Rounder rounder() {
            return new Rounder();
        }

        /** Not a value of the configuration: a class with a decision of its own. */
        public static final class Rounder {

            public long half(long units) {
                return units / 2;
            }
        }
    }
}
