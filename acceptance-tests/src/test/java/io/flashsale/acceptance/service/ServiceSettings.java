package io.flashsale.acceptance.service;

import io.flashsale.testsupport.KafkaEndpoint;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestBuyerTokens;
import io.flashsale.testsupport.TestServices;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Spring properties that point a service process at the test servers, with names of one run only (topic,
 * consumer group, outbox registry), so that it shares Redis and the broker with other tests without meeting them.
 * Kafka is the test JVM's: a broker that outlives every kill of the service.
 */
public final class ServiceSettings {

    private ServiceSettings() {
    }

    /**
     * @param run      a name of this run, {@code [a-z0-9-]}
     * @param database the MariaDB database of this run; the caller decides whether it starts empty
     */
    public static Map<String, String> onTestServices(String run, String database, int port, String adminToken) {
        RedisEndpoint redis = TestServices.redis();
        KafkaEndpoint kafka = TestServices.kafka();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("server.port", Integer.toString(port));
        properties.putAll(TestServices.mariadb().springDatasource(database).properties());
        properties.put("spring.data.redis.host", redis.host());
        properties.put("spring.data.redis.port", Integer.toString(redis.port()));
        properties.put("spring.kafka.bootstrap-servers", kafka.bootstrapServers());
        // A missing broker address must be an error here, never a broker of the service's own.
        properties.put("flashsale.kafka.embedded.enabled", "false");
        properties.put("flashsale.kafka.topic", "flashsale." + run + ".reservations");
        properties.put("flashsale.kafka.consumer.group-id", "flashsale-" + run);
        properties.put("flashsale.redis.outbox-registry", "fs:outbox:" + run);
        properties.put("flashsale.admin.token", adminToken);
        // Buyers sign in with tokens of the tests' issuer (buyer-auth=jwt, the default).
        properties.put(TestBuyerTokens.PUBLIC_KEY_LOCATION_PROPERTY, TestBuyerTokens.rsa().publicKeyLocation());
        // The partitions of a killed process go to its successor once the dead members' sessions expire.
        properties.put("spring.kafka.consumer.properties[session.timeout.ms]", "6000");
        properties.put("spring.kafka.consumer.properties[heartbeat.interval.ms]", "1000");
        return properties;
    }
}
