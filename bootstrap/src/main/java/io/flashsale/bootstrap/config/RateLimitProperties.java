package io.flashsale.bootstrap.config;

import io.flashsale.application.reservation.service.AdmissionPolicy;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BucketLimit;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rate limits before the reserve script (ADR 0037). Each is a token bucket: {@code burst} attempts at once, then
 * {@code per-second} more each second.
 *
 * @param buyer        each buyer's attempts at one sale, counted across every instance (in Redis); on by default
 * @param client       each client address's attempts, across every instance (in Redis); off by default: the
 *                     service sits behind a gateway, which limits clients itself
 * @param sale         the attempts at one sale that one instance admits (this instance's own bucket); off by default
 * @param keyPrefix    the Redis key prefix of the shared buckets
 * @param storeTimeout how long a take from a shared bucket may wait for Redis; past it the attempt is let through
 */
@ConfigurationProperties("flashsale.rate-limit")
public record RateLimitProperties(@DefaultValue Limit buyer, @DefaultValue Client client, @DefaultValue Limit sale,
                                  @DefaultValue("fs:rl:") String keyPrefix,
                                  @DefaultValue("500ms") Duration storeTimeout) {

    public RateLimitProperties {
        PositiveDurations.require("flashsale.rate-limit.store-timeout", storeTimeout);
    }

    /**
     * @param sales a sale's own figures, keyed by activity id, replacing {@code burst}/{@code per-second} for that
     *              sale (and turning the limit on for it even when {@code enabled} is false)
     */
    public record Limit(Boolean enabled, Long burst, Long perSecond, Map<String, Figures> sales) {
    }

    /**
     * The client is the request's remote address: the connection's, or the one a trusted proxy forwarded
     * ({@code flashsale.http.trusted-proxies}).
     *
     * @param exemptLoopback connections from this machine itself pass without a take (a forwarded loopback never does)
     */
    public record Client(@DefaultValue("false") boolean enabled, @DefaultValue("100") long burst,
                         @DefaultValue("50") long perSecond, @DefaultValue("false") boolean exemptLoopback) {
    }

    public record Figures(long burst, long perSecond) {

        BucketLimit toLimit() {
            return new BucketLimit(burst, perSecond, Duration.ofSeconds(1));
        }
    }

    public AdmissionPolicy toPolicy() {
        return new AdmissionPolicy(
                limit(buyer, true, 10, 5), bySale(buyer),
                client.enabled() ? new Figures(client.burst(), client.perSecond()).toLimit() : null,
                limit(sale, false, 2000, 1000), bySale(sale));
    }

    private static BucketLimit limit(Limit limit, boolean enabledByDefault, long burst, long perSecond) {
        boolean enabled = limit.enabled() == null ? enabledByDefault : limit.enabled();
        if (!enabled) {
            return null;
        }
        return new Figures(limit.burst() == null ? burst : limit.burst(),
                limit.perSecond() == null ? perSecond : limit.perSecond()).toLimit();
    }

    private static Map<ActivityId, BucketLimit> bySale(Limit limit) {
        var bySale = new LinkedHashMap<ActivityId, BucketLimit>();
        if (limit.sales() != null) {
            limit.sales().forEach((activityId, figures) -> bySale.put(new ActivityId(activityId), figures.toLimit()));
        }
        return bySale;
    }
}
