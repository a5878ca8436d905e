package io.flashsale.application.sale.service;

import io.flashsale.application.sale.model.HotStoreMayEvictException;
import io.flashsale.application.sale.port.out.EvictionPolicyPort;
import io.flashsale.application.sale.port.out.NodeEvictionPolicy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Whether the hot store may evict a sale's keys (ADR 77). A warm-up reads the policy afresh and is refused while a
 * node may evict; readiness and the metric take the latest reading, read again when it is older than
 * {@code recheck}, so a policy changed at run time shows within that long and probes cost at most a read per period.
 */
public final class EvictionPolicyGuard {

    public static final Duration DEFAULT_RECHECK = Duration.ofSeconds(10);

    private final EvictionPolicyPort policies;
    private final Clock clock;
    private final Duration recheck;
    private volatile EvictionCheck latest = EvictionCheck.UNREAD;
    private volatile Instant triedAt;

    public EvictionPolicyGuard(EvictionPolicyPort policies, Clock clock, Duration recheck) {
        if (recheck == null || recheck.isNegative()) {
            throw new IllegalArgumentException("recheck must be zero or positive, was " + recheck);
        }
        this.policies = policies;
        this.clock = clock;
        this.recheck = recheck;
    }

    /** A guard over a hot store that never evicts: for services whose tests do not look at the policy. */
    public static EvictionPolicyGuard trusting() {
        return new EvictionPolicyGuard(() -> List.of(), Clock.systemUTC(), DEFAULT_RECHECK);
    }

    /**
     * Reads every node's policy now and keeps the reading.
     *
     * @throws io.flashsale.application.shared.port.out.StoreUnavailableException when the hot store does not answer; the
     *                                                                      latest reading stays
     */
    public EvictionCheck checkNow() {
        triedAt = clock.instant();
        EvictionCheck check = new EvictionCheck(policies.read(), triedAt);
        latest = check;
        return check;
    }

    /** The latest reading, read again first when it is older than {@code recheck}; a failed read keeps the last. */
    public EvictionCheck current() {
        Instant tried = triedAt;
        if (tried == null || !clock.instant().isBefore(tried.plus(recheck))) {
            try {
                checkNow();
            } catch (RuntimeException unread) {
                // Redis out of reach: its own health says so; what was last read still stands.
            }
        }
        return latest;
    }

    /**
     * Before a sale is loaded: reads the policy afresh.
     *
     * @throws HotStoreMayEvictException while any node may evict
     */
    public void requireNoEviction() {
        EvictionCheck check = checkNow();
        if (check.mayEvictSaleKeys()) {
            throw new HotStoreMayEvictException(check.unsafe());
        }
    }

    /**
     * One reading of the nodes' policies.
     *
     * @param readAt null when never read
     */
    public record EvictionCheck(List<NodeEvictionPolicy> policies, Instant readAt) {

        static final EvictionCheck UNREAD = new EvictionCheck(List.of(), null);

        public EvictionCheck {
            policies = List.copyOf(policies);
        }

        public boolean read() {
            return readAt != null;
        }

        public boolean mayEvictSaleKeys() {
            return policies.stream().anyMatch(NodeEvictionPolicy::mayEvictSaleKeys);
        }

        public List<NodeEvictionPolicy> unsafe() {
            return policies.stream().filter(NodeEvictionPolicy::mayEvictSaleKeys).toList();
        }
    }
}
