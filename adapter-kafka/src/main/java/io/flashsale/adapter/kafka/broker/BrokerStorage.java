package io.flashsale.adapter.kafka.broker;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Formats the data directory the first time only; later starts keep its cluster id and its log. */
final class BrokerStorage {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerStorage.class);

    private BrokerStorage() {
    }

    /** Returns the cluster id stored in the directory, formatting an empty directory first. */
    static String formatOnce(Path dataDirectory) {
        String directory = dataDirectory.toString();
        try {
            Files.createDirectories(dataDirectory);
            Optional<String> existing = new MetaPropertiesEnsemble.Loader()
                    .addLogDirs(List.of(directory))
                    .addMetadataLogDir(directory)
                    .load()
                    .clusterId();
            if (existing.isPresent()) {
                return existing.get();
            }
            String clusterId = Uuid.randomUuid().toString();
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setClusterId(clusterId)
                    .setNodeId(BrokerProperties.NODE_ID)
                    .setControllerListenerName(BrokerProperties.CONTROLLER_LISTENER)
                    .setDirectories(List.of(directory))
                    .setMetadataLogDirectory(directory)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .run();
            LOG.info("Formatted Kafka data directory {} for new cluster {}", directory, clusterId);
            return clusterId;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read or create the Kafka data directory " + directory, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the Kafka data directory " + directory, e);
        }
    }
}
