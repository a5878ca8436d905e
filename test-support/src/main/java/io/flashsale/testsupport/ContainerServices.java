package io.flashsale.testsupport;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

/** Containers started once per test JVM and left for Testcontainers' reaper to remove. */
final class ContainerServices {

    private static GenericContainer<?> redis;
    private static MySQLContainer mysql;

    private ContainerServices() {
    }

    static synchronized RedisEndpoint redis() {
        if (redis == null) {
            redis = new GenericContainer<>(DockerImageName.parse("redis:7.2-alpine")).withExposedPorts(6379);
            redis.start();
        }
        return new RedisEndpoint(redis.getHost(), redis.getMappedPort(6379));
    }

    static synchronized MariaDbEndpoint mariadb() {
        if (mysql == null) {
            mysql = new MySQLContainer(DockerImageName.parse("mysql:8.4")).withUsername("root").withPassword("test");
            mysql.start();
        }
        return new MariaDbEndpoint(mysql.getHost(), mysql.getMappedPort(3306), "root", "test");
    }
}
