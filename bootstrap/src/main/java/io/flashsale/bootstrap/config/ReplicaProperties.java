package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.replica.ReplicaSettings;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Optional;

/**
 * A read-only replica of the database of record for listings, reports and reconciliation's reads (ADR 86). Without a
 * url every read goes to the primary ({@code spring.datasource}), as without this feature.
 *
 * @param maxLag        replication lag above which every read goes to the primary
 * @param checkInterval how long one reading of the replica's status serves every read
 * @param catchUpWait   how long a read reconciliation acts on waits for the replica to apply what the primary had
 *                      committed before it goes to the primary instead
 */
@ConfigurationProperties("flashsale.datasource.replica")
public record ReplicaProperties(String url, String username, String password,
                                @DefaultValue("5s") Duration maxLag,
                                @DefaultValue("1s") Duration checkInterval,
                                @DefaultValue("250ms") Duration catchUpWait) {

    /** The settings of the configured replica; empty when no url is set. */
    Optional<ReplicaSettings> toSettings() {
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new ReplicaSettings(url, username, password, maxLag, checkInterval, catchUpWait));
    }
}
