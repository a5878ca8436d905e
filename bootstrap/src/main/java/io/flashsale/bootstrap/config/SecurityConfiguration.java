package io.flashsale.bootstrap.config;

import io.flashsale.adapter.web.security.AdminToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AdminProperties.class)
public class SecurityConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(SecurityConfiguration.class);

    /** Without a configured token the service still protects admin calls, with one only its log shows. */
    @Bean
    AdminToken adminToken(AdminProperties properties) {
        String configured = properties.token();
        if (configured != null && !configured.isBlank()) {
            return AdminToken.of(configured.strip());
        }
        String generated = AdminToken.generate();
        LOG.warn("No admin token configured (flashsale.admin.token / FLASHSALE_ADMIN_TOKEN); "
                + "generated one for this run: {}", generated);
        return AdminToken.of(generated);
    }
}
