package io.flashsale.benchmarks;

import io.flashsale.benchmarks.mysql.MysqlServer;
import io.flashsale.benchmarks.redis.RedisServer;
import io.flashsale.testsupport.MariaDbEndpoint;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;

/** The test servers, as test-support locates them, in the benchmark's terms. */
final class Servers {

    /** Small: the tests race for rows, not for connections, and the server's connections are shared. */
    static final int POOL = 16;

    private Servers() {
    }

    static MysqlServer mysql() {
        MariaDbEndpoint endpoint = TestServices.mariadb();
        return new MysqlServer(endpoint.host(), endpoint.port(), endpoint.username(), endpoint.password());
    }

    static RedisServer redis() {
        RedisEndpoint endpoint = TestServices.redis();
        return new RedisServer(endpoint.host(), endpoint.port());
    }
}
