package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The archive schedule: ended sales with nothing in flight leave Redis. The explicit archive endpoint works whatever
 * is set here.
 *
 * @param scheduleEnabled false: this instance archives nothing by itself
 * @param interval        how often ended sales are tried
 */
@ConfigurationProperties("flashsale.archive")
public record ArchiveProperties(@DefaultValue("true") boolean scheduleEnabled,
                                @DefaultValue("60s") Duration interval) {

    public ArchiveProperties {
        PositiveDurations.require("flashsale.archive.interval", interval);
    }
}
