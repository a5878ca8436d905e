package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.ReadPace;
import io.flashsale.adapter.redis.internal.ReplicaWait;
import io.flashsale.adapter.redis.internal.ReserveBatcher;
import io.flashsale.application.blocklist.port.out.BlocklistChangesPort;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OutboxNewsPort;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.application.reconciliation.port.out.HotStoreAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reconciliation.port.out.SliceAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.SliceRebuildPort;
import io.flashsale.application.reconciliation.port.out.SliceReconciliationPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.reservation.port.out.StockReturnsPort;
import io.flashsale.application.sale.port.out.EvictionPolicyPort;
import io.flashsale.application.sale.port.out.HotStoreArchivePort;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.slice.port.out.SlicePlacementPort;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.protocol.ConnectionIntent;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The service's one Lettuce client and one shared, thread-safe connection (Lettuce pipelines concurrent callers on
 * it), and the adapters built on them. Nothing on the connection may block (no XREADGROUP BLOCK, no BLPOP): every
 * caller would wait behind it. Wiring code sees only this class and the ports, never Lettuce.
 * <p>
 * A standalone Redis or a Redis Cluster ({@link Settings#clusterNodes()} not empty): every script touches keys of one
 * activity only, which share its hash tag and so one slot; the cluster client routes each call by its keys.
 */
public final class RedisHotStore implements AutoCloseable {

    /**
     * @param password     null or empty: no AUTH
     * @param clusterNodes {@code host:port} seeds of a Redis Cluster; empty: the standalone {@code host:port}
     */
    public record Settings(String host, int port, String password, int database, Duration timeout,
                           List<String> clusterNodes) {

        public Settings {
            clusterNodes = clusterNodes == null ? List.of() : List.copyOf(clusterNodes);
        }

        public Settings(String host, int port, String password, int database, Duration timeout) {
            this(host, port, password, database, timeout, List.of());
        }

        boolean cluster() {
            return !clusterNodes.isEmpty();
        }

        /** The single server's address, {@code host:port}. */
        String node() {
            return host + ":" + port;
        }

        RedisURI toUri() {
            return uri(host, port).withDatabase(database).build();
        }

        List<RedisURI> clusterUris() {
            return clusterNodes.stream().map(node -> {
                int colon = node.lastIndexOf(':');
                if (colon <= 0 || colon == node.length() - 1) {
                    throw new IllegalArgumentException("a cluster node is host:port, was '" + node + "'");
                }
                return uri(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1))).build();
            }).toList();
        }

        private RedisURI.Builder uri(String nodeHost, int nodePort) {
            RedisURI.Builder uri = RedisURI.builder().withHost(nodeHost).withPort(nodePort).withTimeout(timeout);
            if (password != null && !password.isEmpty()) {
                uri.withPassword(password.toCharArray());
            }
            return uri;
        }
    }

    private static final System.Logger LOG = System.getLogger(RedisHotStore.class.getName());

    private final AbstractRedisClient client;
    private final Supplier<StatefulConnection<String, String>> connection;
    private final ConnectionCommands commands;
    private final RedisClusterCommands<String, String> redis;
    private final String outboxRegistry;
    private final RedisStockReturns returns;
    private final RedisSaleChanges saleChanges;
    private final RedisOutboxNews news;
    private final String standaloneNode;
    private final RedisBlocklistChanges blocklistChanges;
    private final boolean windowByRedisTime;
    /** Connections opened for other codecs (the rate-limit buckets'), closed with this one. */
    private final List<StatefulConnection<?, ?>> extraConnections = new ArrayList<>();
    /** The reserve path's WAIT, when it waits for replicas (ADR 0097). */
    private final AtomicReference<ReplicaWait> replicaWait = new AtomicReference<>();
    /** The reserve path's adapters made so far, whose calls {@link #reserveCalls()} sums. */
    private final List<RedisStockReservationAdapter> reserveAdapters = new CopyOnWriteArrayList<>();
    /** Each sale's slice count (ADR 109), one memory for every adapter here, so a warm-up's forget reaches them all. */
    private final SliceCounts sliceCounts;

    private RedisHotStore(AbstractRedisClient client, Supplier<StatefulConnection<String, String>> connection,
                          ConnectionCommands commands, RedisStockReturns returns, RedisSaleChanges saleChanges,
                          RedisOutboxNews news, RedisBlocklistChanges blocklistChanges, String outboxRegistry,
                          boolean windowByRedisTime, String standaloneNode) {
        this.blocklistChanges = blocklistChanges;
        this.windowByRedisTime = windowByRedisTime;
        this.standaloneNode = standaloneNode;
        this.saleChanges = saleChanges;
        this.client = client;
        this.connection = connection;
        this.commands = commands;
        this.redis = commands.sync();
        this.outboxRegistry = outboxRegistry;
        this.returns = returns;
        this.news = news;
        this.sliceCounts = new SliceCounts(redis);
    }

    /**
     * @param outboxRegistry the set of activities the outbox relays read; every adapter of one service uses the same
     *                       one, so a warm-up, a rebuild and an archive all change the set the relays read
     */
    public static RedisHotStore connect(Settings settings, String outboxRegistry) {
        return connect(settings, outboxRegistry, true);
    }

    /**
     * Connects now when Redis answers; when it does not, the store is made all the same and connects on first use
     * (at most one attempt per {@link #RECONNECT_EVERY}), so the service starts while Redis is down and needs no
     * restart when it comes back. Commands issued while the connection is down fail at once instead of queueing
     * until their timeout: a caller (the hot store's circuit breaker) learns of an outage in microseconds.
     *
     * @param windowByRedisTime true: the sale window is judged by Redis {@code TIME}, one clock for every instance;
     *                          false: by the instant of each request (the service's clock), for tests that move it
     */
    public static RedisHotStore connect(Settings settings, String outboxRegistry, boolean windowByRedisTime) {
        AbstractRedisClient client = client(settings);
        String channel = RedisKeys.stockReturnsChannel(outboxRegistry);
        String changesChannel = RedisKeys.saleChangesChannel(outboxRegistry);
        String newsChannel = RedisKeys.outboxNewsChannel(outboxRegistry);
        String blocklistChannel = RedisKeys.blocklistChangesChannel(outboxRegistry);
        try {
            LazyConnection.Connected now = open(client);
            RedisClusterCommands<String, String> redis = now.commands();
            RedisStockReturns returns = new RedisStockReturns(now.subscription(),
                    activityId -> redis.publish(channel, activityId), channel);
            RedisSaleChanges changes = new RedisSaleChanges(publisher(redis, changesChannel), changesChannel);
            changes.listenOn(now.subscription());
            RedisOutboxNews news = new RedisOutboxNews(activityId -> redis.publish(newsChannel, activityId), newsChannel);
            news.listenOn(now.subscription());
            RedisBlocklistChanges blocklist = new RedisBlocklistChanges(publisher(redis, blocklistChannel),
                    blocklistChannel);
            blocklist.listenOn(now.subscription());
            return new RedisHotStore(client, now::connection,
                    new ConnectionCommands(redis, now.asyncCommands(), settings.timeout()), returns, changes, news,
                    blocklist, outboxRegistry, windowByRedisTime, settings.node());
        } catch (RedisConnectionException down) {
            AtomicReference<RedisStockReturns> returns = new AtomicReference<>();
            AtomicReference<RedisSaleChanges> changes = new AtomicReference<>();
            AtomicReference<RedisOutboxNews> news = new AtomicReference<>();
            AtomicReference<RedisBlocklistChanges> blocklist = new AtomicReference<>();
            LazyConnection lazy = LazyConnection.of(() -> open(client), connected -> {
                returns.get().listenOn(connected.subscription());
                changes.get().listenOn(connected.subscription());
                news.get().listenOn(connected.subscription());
                blocklist.get().listenOn(connected.subscription());
            }, RECONNECT_EVERY);
            RedisClusterCommands<String, String> redis = LazyConnection.commands(lazy);
            returns.set(new RedisStockReturns(activityId -> redis.publish(channel, activityId), channel));
            changes.set(new RedisSaleChanges(publisher(redis, changesChannel), changesChannel));
            news.set(new RedisOutboxNews(activityId -> redis.publish(newsChannel, activityId), newsChannel));
            blocklist.set(new RedisBlocklistChanges(publisher(redis, blocklistChannel), blocklistChannel));
            return new RedisHotStore(client, () -> lazy.current() == null ? null : lazy.current().connection(),
                    new ConnectionCommands(redis, LazyConnection.asyncCommands(lazy), settings.timeout()),
                    returns.get(), changes.get(), news.get(), blocklist.get(), outboxRegistry, windowByRedisTime,
                    settings.node());
        } catch (RuntimeException unusable) {
            client.shutdown();
            throw unusable;
        }
    }

    /**
     * Publishes a change (of a sale, of the blocklist), or logs that it could not: the change is made already, and an
     * instance that misses the notice forgets what it remembered when its memory runs out (the blocklist: at its
     * periodic read), or at once when its own subscription comes back.
     */
    private static Consumer<String> publisher(RedisClusterCommands<String, String> redis, String channel) {
        return activityId -> {
            try {
                redis.publish(channel, activityId);
            } catch (RuntimeException unpublished) {
                LOG.log(System.Logger.Level.WARNING, "could not announce {0} on {1}: {2}", activityId, channel,
                        unpublished.toString());
            }
        };
    }

    /**
     * A replica that takes a dead master's place is found by asking the nodes again: Lettuce does not by default, and
     * would go on sending the master's slots to its address (ADR 0097). Adaptive triggers (reconnects, redirects) ask
     * at once, at most once a second; the periodic read catches a promotion that happened after the last trigger.
     */
    static final ClusterTopologyRefreshOptions TOPOLOGY_REFRESH = ClusterTopologyRefreshOptions.builder()
            .enableAllAdaptiveRefreshTriggers()
            .adaptiveRefreshTriggersTimeout(Duration.ofSeconds(1))
            .enablePeriodicRefresh(Duration.ofSeconds(2))
            .build();

    /** How often a store made while Redis was down tries to connect, at most. */
    public static final Duration RECONNECT_EVERY = Duration.ofMillis(500);

    /**
     * The longest wait between two attempts to get a lost connection back. Lettuce's own backoff doubles up to 30 s, so
     * after an outage of a minute the service went on refusing to use Redis for up to 30 s after it was back (the
     * breaker's probes fail at once on a connection that is down); a second bounds that, at one attempt a second per
     * connection while Redis is away.
     */
    static final Duration LONGEST_RECONNECT_DELAY = Duration.ofSeconds(1);

    private static AbstractRedisClient client(Settings settings) {
        ClientResources resources = DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(10), LONGEST_RECONNECT_DELAY, 2,
                        TimeUnit.MILLISECONDS))
                .build();
        if (settings.cluster()) {
            RedisClusterClient cluster = RedisClusterClient.create(resources, settings.clusterUris());
            cluster.setOptions(ClusterClientOptions.builder()
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .topologyRefreshOptions(TOPOLOGY_REFRESH).build());
            return cluster;
        }
        RedisClient standalone = RedisClient.create(resources, settings.toUri());
        standalone.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS).build());
        return standalone;
    }

    /** The shared connection and the subscription connection, both or neither. */
    private static LazyConnection.Connected open(AbstractRedisClient client) {
        if (client instanceof RedisClusterClient cluster) {
            StatefulRedisClusterConnection<String, String> connection = cluster.connect();
            try {
                return new LazyConnection.Connected(connection, connection.sync(), connection.async(),
                        cluster.connectPubSub());
            } catch (RuntimeException failed) {
                connection.close();
                throw failed;
            }
        }
        RedisClient standalone = (RedisClient) client;
        StatefulRedisConnection<String, String> connection = standalone.connect();
        try {
            return new LazyConnection.Connected(connection, connection.sync(), connection.async(),
                    standalone.connectPubSub());
        } catch (RuntimeException failed) {
            connection.close();
            throw failed;
        }
    }

    /** The hot path, in calls of the default batch bound; {@link #reservationRoles()} for the reservations' moves. */
    public StockReservationPort stockReservations() {
        return stockReservations(RedisStockReservationAdapter.DEFAULT_MAX_BATCH);
    }

    /** As {@link #reservationRoles(int, ReplicaAcknowledgement)} with the default batch bound, no replica awaited. */
    public ReservationRoles reservationRoles() {
        return reservationRoles(RedisStockReservationAdapter.DEFAULT_MAX_BATCH, ReplicaAcknowledgement.NONE);
    }

    /**
     * @param maxBatch reserve attempts of one sale per script call at most (ADR 0068); 1: every attempt a call of
     *                 its own, as many in flight as there are callers
     */
    public StockReservationPort stockReservations(int maxBatch) {
        return stockReservations(maxBatch, ReplicaAcknowledgement.NONE);
    }

    /** As {@link #stockReservations(int, ReplicaAcknowledgement)} with the default batch bound. */
    public StockReservationPort stockReservations(ReplicaAcknowledgement acknowledgement) {
        return stockReservations(RedisStockReservationAdapter.DEFAULT_MAX_BATCH, acknowledgement);
    }

    /**
     * @param maxBatch        as {@link #stockReservations(int)}
     * @param acknowledgement replicas each reserve call waits for before its buyers are answered (ADR 0097); when it
     *                        waits, the calls run on a connection of their own (WAIT blocks the connection it is sent
     *                        on), opened on first use. Call it once.
     */
    public StockReservationPort stockReservations(int maxBatch, ReplicaAcknowledgement acknowledgement) {
        return reservationRoles(maxBatch, acknowledgement).hotPath();
    }

    /**
     * The reservation adapter in each of its roles, each a port of its own (ADR 0101): the hot path, the records it
     * holds, and their moves after the decision.
     *
     * @param maxBatch        as {@link #stockReservations(int)}
     * @param acknowledgement as {@link #stockReservations(int, ReplicaAcknowledgement)}. Call it once.
     */
    public ReservationRoles reservationRoles(int maxBatch, ReplicaAcknowledgement acknowledgement) {
        if (acknowledgement.waits() && acknowledgement.timeout().compareTo(commands.timeout()) >= 0) {
            throw new IllegalArgumentException("a WAIT of " + acknowledgement.timeout() + " must end within the"
                    + " command timeout " + commands.timeout() + ", or a slow replica would fail the reservation");
        }
        ReplicaWait wait = acknowledgement.waits() ? new ReplicaWait(reserveConnections(),
                acknowledgement.replicas(), acknowledgement.timeout().toMillis()) : null;
        if (wait != null) {
            replicaWait.set(wait);
        }
        RedisStockReservationAdapter adapter = new RedisStockReservationAdapter(commands, outboxRegistry,
                returns::announce, news::announce, windowByRedisTime, maxBatch, wait, sliceCounts);
        reserveAdapters.add(adapter);
        return new ReservationRoles(HotStoreOutages.translating(StockReservationPort.class, adapter),
                HotStoreOutages.translating(HeldReservationsPort.class, adapter),
                HotStoreOutages.translating(ReservationTransitionsPort.class, adapter));
    }

    /**
     * @param hotPath     warm-up, reserve and the figures the buyer's page reads
     * @param held        the reservation records a read, a payment or the pipeline asks for
     * @param transitions confirm, fail, release, mark paid and restore
     */
    public record ReservationRoles(StockReservationPort hotPath, HeldReservationsPort held,
                                   ReservationTransitionsPort transitions) {
    }

    /**
     * The reserve script calls this store's hot path sent and the attempts they carried (ADR 0068's group commit):
     * attempts / calls is the size of a call, which sets Redis's cost of a reservation (docs/scale.md).
     */
    public ReserveCalls reserveCalls() {
        long calls = 0;
        long attempts = 0;
        for (RedisStockReservationAdapter adapter : reserveAdapters) {
            ReserveBatcher.Figures figures = adapter.reserveCalls();
            calls += figures.calls();
            attempts += figures.attempts();
        }
        return new ReserveCalls(calls, attempts);
    }

    /** Reserve script calls sent, and the attempts they carried. */
    public record ReserveCalls(long calls, long attempts) {
    }

    /** Reserve calls whose WAIT saw the replicas asked for, and calls it returned short; zeros when none waits. */
    public ReplicaAcknowledgement.Figures replicaAcknowledgements() {
        ReplicaWait wait = replicaWait.get();
        return wait == null ? new ReplicaAcknowledgement.Figures(0, 0)
                : new ReplicaAcknowledgement.Figures(wait.confirmedCalls(), wait.shortCalls());
    }

    /**
     * The reserve path's own connection to the master of a key: a connection opened on first use (from a caller's
     * thread: a sale's first batch is sent by its caller), on a cluster that connection's link to the node that
     * serves the key's slot now.
     */
    private Function<String, CompletableFuture<RedisClusterAsyncCommands<String, String>>> reserveConnections() {
        if (client instanceof RedisClusterClient cluster) {
            Supplier<StatefulRedisClusterConnection<String, String>> own = opened(cluster::connect);
            return key -> {
                StatefulRedisClusterConnection<String, String> connection = own.get();
                RedisClusterNode master = connection.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
                if (master == null) {
                    return CompletableFuture.failedFuture(new RedisConnectionException(
                            "no master serves the slot of " + key));
                }
                return connection.getConnectionAsync(master.getNodeId(), ConnectionIntent.WRITE)
                        .thenApply(StatefulRedisConnection::async);
            };
        }
        Supplier<StatefulRedisConnection<String, String>> own = opened(((RedisClient) client)::connect);
        return key -> CompletableFuture.completedFuture(own.get().async());
    }

    /** The connection {@code open} makes, opened once on first use and closed with the store. */
    private <C extends StatefulConnection<String, String>> Supplier<C> opened(Supplier<C> open) {
        AtomicReference<C> made = new AtomicReference<>();
        return () -> {
            C now = made.get();
            if (now != null) {
                return now;
            }
            synchronized (extraConnections) {
                if (made.get() == null) {
                    C connection = open.get();
                    extraConnections.add(connection);
                    made.set(connection);
                }
                return made.get();
            }
        };
    }

    /** Sales' filters of accepted request keys, each in one read (ADR 0069). */
    public AcceptedRequestsPort acceptedRequests() {
        return HotStoreOutages.translating(new RedisAcceptedRequests(redis, sliceCounts));
    }

    public ReservationOutboxPort outbox() {
        return HotStoreOutages.translating(new RedisReservationOutbox(redis, outboxRegistry, sliceCounts));
    }

    public HotStoreArchivePort archive() {
        return HotStoreOutages.translating(new RedisActivityArchive(redis, outboxRegistry, sliceCounts));
    }

    /** Sales' pause and window as the reserve script reads them (ADR 79). */
    public HotStoreSaleTermsPort saleTerms() {
        return HotStoreOutages.translating(new RedisSaleTerms(redis, sliceCounts));
    }

    public HotStoreSettlementPort settlement() {
        return HotStoreOutages.translating(new RedisHotStoreSettlement(redis, returns::announce));
    }

    /**
     * Reconciliation's adapters, one per role, each a port of its own (ADR 0101), so the application is handed every
     * role it uses rather than discovering one behind another.
     *
     * @param readPace how reconciliation's paged reads yield to the buyers: after each page a pause this many times as
     *                 long as the page took (0: none)
     */
    public ReconciliationRoles reconciliationRoles(double readPace) {
        ReadPace pace = new ReadPace(readPace);
        RedisHotStoreReconciliation reconciliation = new RedisHotStoreReconciliation(redis, returns::announce, pace);
        RedisHotStoreRebuild rebuild = new RedisHotStoreRebuild(redis, outboxRegistry, returns::announce);
        RedisStockAdjustments adjustments = new RedisStockAdjustments(redis, returns::announce);
        return new ReconciliationRoles(
                HotStoreOutages.translating(HotStoreReconciliationPort.class, reconciliation),
                HotStoreOutages.translating(HotStoreRebuildPort.class, rebuild),
                HotStoreOutages.translating(HotStoreAdjustmentPort.class, adjustments),
                HotStoreOutages.translating(RelayedEventsPort.class, new RedisRelayedEvents(redis, pace, sliceCounts)),
                HotStoreOutages.translating(RecoveryMarkPort.class, new RedisRecoveryMarks(redis)),
                HotStoreOutages.translating(SliceReconciliationPort.class, reconciliation),
                HotStoreOutages.translating(SliceRebuildPort.class, rebuild),
                HotStoreOutages.translating(SliceAdjustmentPort.class, adjustments));
    }

    /**
     * @param reconciliation the look, the repair and the re-drive
     * @param rebuild        loading a lost sale again from the database of record
     * @param adjustments    audited stock adjustments
     * @param relayedEvents  the outbox and the broker positions the relay recorded (ADR 29)
     * @param recoveryMarks  where a lost sale's rebuild keeps the broker's end it waits for (ADR 30)
     * @param sliceReconciliation the look and the repair of one slice of a sale in slices, over its keys alone (ADR
     *                       110): the same adapter as {@code reconciliation}, whose activity forms are slice 0 of a
     *                       sale of one slice
     * @param sliceRebuild   loading one lost slice of a sale in slices again, over its keys alone (ADR 111): the same
     *                       adapter as {@code rebuild}
     * @param sliceAdjustments each slice's part of an audited stock adjustment of a sale in slices (ADR 112): the same
     *                       adapter as {@code adjustments}
     */
    public record ReconciliationRoles(HotStoreReconciliationPort reconciliation, HotStoreRebuildPort rebuild,
                                      HotStoreAdjustmentPort adjustments, RelayedEventsPort relayedEvents,
                                      RecoveryMarkPort recoveryMarks, SliceReconciliationPort sliceReconciliation,
                                      SliceRebuildPort sliceRebuild, SliceAdjustmentPort sliceAdjustments) {
    }

    /**
     * The two halves of a stock transfer between a sale's slices (ADR 109); a credit that gives a slice units is
     * announced as a return, so every instance's sold-out memory forgets the sale.
     */
    public SliceStockPort sliceStock() {
        return HotStoreOutages.translating(SliceStockPort.class, new RedisSliceStock(redis, returns::announce));
    }

    /**
     * On how many masters a sale's slices sit (ADR 109): on a cluster, by the client's partitions, the topology Lettuce
     * keeps for every connection of the client and refreshes by itself, so a read sends no command; a single server
     * is one master.
     */
    public SlicePlacementPort slicePlacement() {
        return HotStoreOutages.translating(SlicePlacementPort.class, client instanceof RedisClusterClient cluster
                ? RedisSlicePlacement.cluster(cluster::getPartitions) : RedisSlicePlacement.standalone());
    }

    /**
     * Token buckets shared by every instance of the service, on a connection of their own (its timeout is the
     * limiter's, not the hot store's), opened on first use so the service starts while Redis is down. Each call opens
     * one more connection: call it once.
     *
     * @param prefix  the key prefix of every bucket, e.g. {@code fs:rl:}
     * @param timeout how long one take may wait for Redis before it fails
     */
    public RateLimitBucketsPort rateLimitBuckets(String prefix, Duration timeout) {
        return new LazyRateLimitBuckets(() -> connectRateLimitBuckets(prefix, timeout));
    }

    private RateLimitBucketsPort connectRateLimitBuckets(String prefix, Duration timeout) {
        synchronized (extraConnections) {
            if (client instanceof RedisClusterClient cluster) {
                StatefulRedisClusterConnection<String, String> own = cluster.connect();
                own.setTimeout(timeout);
                extraConnections.add(own);
                return new RedisRateLimitBuckets(own.sync(), prefix);
            }
            StatefulRedisConnection<String, String> own = ((RedisClient) client).connect();
            own.setTimeout(timeout);
            extraConnections.add(own);
            return new RedisRateLimitBuckets(own.sync(), prefix);
        }
    }

    /** Changes of sales, announced by this instance or another one; announced by the application's services. */
    public SaleChangesPort saleChanges() {
        return saleChanges;
    }

    /** Changes of the blocklist, announced by the application's blocklist service here or on another instance. */
    public BlocklistChangesPort blocklistChanges() {
        return blocklistChanges;
    }

    /** Every return of units, announced by this instance's adapters or another instance's. */
    public StockReturnsPort stockReturns() {
        return returns;
    }

    /**
     * News of outboxes with entries to relay: this instance's accepted reservations at once, the other instances'
     * within moments (ADR 0067).
     */
    public OutboxNewsPort outboxNews() {
        return news;
    }

    /** Each node's {@code maxmemory-policy}, read on the shared connection (ADR 77). */
    public EvictionPolicyPort evictionPolicies() {
        return HotStoreOutages.translating(new RedisEvictionPolicies(connection, standaloneNode));
    }

    /** One PING on the shared connection (on a cluster, to a node Lettuce picks): what a health check asks. Throws when Redis does not answer in time. */
    public String ping() {
        return redis.ping();
    }

    /**
     * The {@code run_id} of the Redis server behind the shared connection: a new one after every restart, so a caller
     * can tell that Redis may have lost what it had not persisted. On a cluster, every master's node id and
     * {@code run_id}, sorted: a restart of any master, or a replica taking a master's place, changes it, since each
     * master holds sales of its own. Throws when Redis does not answer.
     */
    public String incarnation() {
        if (connection.get() instanceof StatefulRedisClusterConnection<String, String> cluster) {
            // Masters that serve slots: a dead master its replica replaced keeps the master flag, but no slot.
            return cluster.sync().nodes(node -> node.is(RedisClusterNode.NodeFlag.UPSTREAM)
                            && !node.is(RedisClusterNode.NodeFlag.FAIL) && !node.getSlots().isEmpty())
                    .commands().info("server").asMap().entrySet().stream()
                    .map(master -> master.getKey().getNodeId() + "=" + runId(master.getValue()))
                    .sorted().collect(Collectors.joining(","));
        }
        return runId(redis.info("server"));
    }

    private static String runId(String info) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("run_id:")) {
                return line.substring("run_id:".length()).trim();
            }
        }
        throw new IllegalStateException("INFO server carried no run_id");
    }

    @Override
    public void close() {
        news.close();
        returns.close();
        synchronized (extraConnections) {
            extraConnections.forEach(StatefulConnection::close);
        }
        StatefulConnection<String, String> open = connection.get();
        if (open != null) {
            open.close();
        }
        // The resources are the store's own (for their reconnect delay), so the client leaves them to their owner.
        ClientResources resources = client.getResources();
        client.shutdown();
        resources.shutdown();
    }
}
