package io.flashsale.adapter.kafka.broker;

import java.util.LinkedHashMap;
import java.util.Map;

/** The configuration of a single-node KRaft broker that is its own controller. */
final class BrokerProperties {

    static final int NODE_ID = 1;
    static final String CLIENT_LISTENER = "PLAINTEXT";
    static final String CONTROLLER_LISTENER = "CONTROLLER";

    private BrokerProperties() {
    }

    static Map<String, String> of(EmbeddedKafkaSettings settings, int port, int controllerPort) {
        String host = settings.host();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("process.roles", "broker,controller");
        properties.put("node.id", Integer.toString(NODE_ID));
        // Static voters: the quorum is not written into the log, so a restart may use other ports.
        properties.put("controller.quorum.voters", NODE_ID + "@" + host + ":" + controllerPort);
        properties.put("controller.listener.names", CONTROLLER_LISTENER);
        properties.put("inter.broker.listener.name", CLIENT_LISTENER);
        properties.put("listeners",
                CLIENT_LISTENER + "://" + host + ":" + port + "," + CONTROLLER_LISTENER + "://" + host + ":" + controllerPort);
        properties.put("advertised.listeners", CLIENT_LISTENER + "://" + host + ":" + port);
        properties.put("listener.security.protocol.map",
                CLIENT_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        properties.put("log.dirs", settings.dataDirectory().toString());

        // One node: every replication factor and in-sync minimum is 1.
        properties.put("default.replication.factor", "1");
        properties.put("min.insync.replicas", "1");
        properties.put("offsets.topic.replication.factor", "1");
        properties.put("transaction.state.log.replication.factor", "1");
        properties.put("transaction.state.log.min.isr", "1");
        properties.put("share.coordinator.state.topic.replication.factor", "1");
        properties.put("share.coordinator.state.topic.min.isr", "1");
        // Fewer internal partitions: one broker gains nothing from fifty, and creating them delays the first group.
        properties.put("offsets.topic.num.partitions", "5");
        properties.put("transaction.state.log.num.partitions", "5");

        properties.put("group.initial.rebalance.delay.ms", "0");
        // After a crash the controller refuses the broker's new registration until the dead one's session expires
        // (default 9 s): a shorter session makes a restarted process serve again in about 3 s.
        properties.put("broker.heartbeat.interval.ms", "500");
        properties.put("broker.session.timeout.ms", "3000");
        // Topics are created on purpose (with their partition count), never by a typo in a client.
        properties.put("auto.create.topics.enable", "false");
        // The default 128 MiB compaction buffer is sized for a dedicated broker host, not a process it shares.
        properties.put("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));

        properties.putAll(settings.brokerProperties());
        return properties;
    }
}
