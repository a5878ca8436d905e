package io.flashsale.bootstrap.embedded;

import io.flashsale.embedded.ServerAddress;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JdbcAddressTest {

    @Test
    void readsTheHostAndPortOfASingleHostUrl() {
        assertThat(JdbcAddress.of("jdbc:mysql://db.internal:3307/flashsale?useSSL=false"))
                .contains(new ServerAddress("db.internal", 3307));
        assertThat(JdbcAddress.of("jdbc:mariadb://127.0.0.1/flashsale")).contains(new ServerAddress("127.0.0.1", 3306));
        assertThat(JdbcAddress.of("jdbc:mysql://db:3306")).contains(new ServerAddress("db", 3306));
    }

    @Test
    void givesNothingForUrlsItCannotProbe() {
        assertThat(JdbcAddress.of("jdbc:mysql://db-1:3306,db-2:3306/flashsale")).isEmpty();
        assertThat(JdbcAddress.of("jdbc:mysql:loadbalance://db-1,db-2/flashsale")).isEmpty();
        assertThat(JdbcAddress.of("jdbc:h2:mem:test")).isEmpty();
    }
}
