package io.flashsale.acceptance.service;

import io.flashsale.bootstrap.FlashsaleApplication;
import io.flashsale.testsupport.TestBuyerTokens;
import io.flashsale.testsupport.TestServices;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.ArrayList;
import java.util.List;

/**
 * One more service instance in the test JVM, for scenarios about several instances or about a Redis of their own.
 * It shares the scenario's database and the test broker, and gets a topic, consumer group and outbox registry of
 * its own run, so it never reads another scenario's events.
 */
public final class InProcessInstance {

    private InProcessInstance() {
    }

    /**
     * @param purpose  names the run's topic, group and registry ({@code instances}, {@code outage}, ...)
     * @param settings further {@code --name=value} arguments; as arguments they win over application.yaml, as an
     *                 operator's command line does
     */
    public static ConfigurableApplicationContext start(String redisHost, int redisPort, String database,
                                                       String purpose, String run, String adminToken,
                                                       String... settings) {
        List<String> arguments = new ArrayList<>(List.of(
                "--server.port=0",
                "--management.server.port=0",
                "--spring.main.banner-mode=off",
                "--spring.data.redis.host=" + redisHost,
                "--spring.data.redis.port=" + redisPort,
                "--spring.kafka.bootstrap-servers=" + TestServices.kafka().bootstrapServers(),
                "--flashsale.kafka.embedded.enabled=false",
                "--flashsale.kafka.topic=flashsale." + purpose + "." + run + ".reservations",
                "--flashsale.kafka.consumer.group-id=flashsale-" + purpose + "-" + run,
                "--flashsale.redis.outbox-registry=fs:outbox:" + purpose + ":" + run,
                "--flashsale.admin.token=" + adminToken,
                "--" + TestBuyerTokens.PUBLIC_KEY_LOCATION_PROPERTY + "="
                        + TestBuyerTokens.CLASSPATH_PUBLIC_KEY_LOCATION));
        arguments.addAll(TestServices.mariadb().springDatasource(database).arguments());
        arguments.addAll(List.of(settings));
        return new SpringApplicationBuilder(FlashsaleApplication.class).run(arguments.toArray(String[]::new));
    }
}
