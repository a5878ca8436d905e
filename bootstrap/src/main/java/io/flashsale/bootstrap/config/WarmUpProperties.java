package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The warm-up schedule: sales are loaded into Redis {@code lead} before they open, by whichever instance gets there
 * first. The explicit warm-up endpoint works whatever is set here.
 *
 * @param scheduleEnabled false: this instance warms nothing up by itself
 * @param interval        how often the schedule looks for sales due
 * @param lead            how long before {@code startsAt} a sale is loaded; zero loads it as it opens
 */
@ConfigurationProperties("flashsale.warm-up")
public record WarmUpProperties(@DefaultValue("true") boolean scheduleEnabled,
                               @DefaultValue("5s") Duration interval,
                               @DefaultValue("60s") Duration lead) {

    public WarmUpProperties {
        PositiveDurations.require("flashsale.warm-up.interval", interval);
        if (lead == null || lead.isNegative()) {
            throw new IllegalArgumentException("flashsale.warm-up.lead must be zero or positive, was " + lead);
        }
    }
}
