package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.security.TrustedProxies;
import org.apache.catalina.valves.RemoteIpValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/** Narrows the RemoteIpValve of {@code server.forward-headers-strategy=native} to the configured trusted proxies. */
final class TrustedProxiesCustomizer implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    private final TrustedProxies proxies;
    private final boolean valveRequired;

    /** @param valveRequired configured proxies without forwarded headers on stop the start-up (the buyers' server) */
    TrustedProxiesCustomizer(TrustedProxies proxies, boolean valveRequired) {
        this.proxies = proxies;
        this.valveRequired = valveRequired;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        var valves = factory.getEngineValves().stream()
                .filter(RemoteIpValve.class::isInstance).map(RemoteIpValve.class::cast).toList();
        if (valveRequired && valves.isEmpty() && !proxies.isEmpty()) {
            throw new IllegalStateException(proxies.property()
                    + " is set but forwarded headers are off: set server.forward-headers-strategy=native");
        }
        valves.forEach(proxies::applyTo);
    }

    /** After Boot's TomcatWebServerFactoryCustomizer (order 0), which adds the valve. */
    @Override
    public int getOrder() {
        return 1;
    }
}
