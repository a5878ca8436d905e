package io.flashsale.testsupport;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SpringDatasourceTest {

    private final SpringDatasource datasource = new SpringDatasource("jdbc:mysql://db:3306/shop", "app", "secret");

    @Test
    void givenADatasource_thenEachFormCarriesTheSameThreeSpringBootProperties() {
        Map<String, Object> registered = new LinkedHashMap<>();
        datasource.registerIn((name, value) -> registered.put(name, value.get()));

        Map<String, String> expected = Map.of("spring.datasource.url", "jdbc:mysql://db:3306/shop",
                "spring.datasource.username", "app", "spring.datasource.password", "secret");
        assertThat(datasource.properties()).containsExactlyInAnyOrderEntriesOf(expected);
        assertThat(registered).containsExactlyInAnyOrderEntriesOf(expected);
        assertThat(datasource.arguments()).containsExactly("--spring.datasource.url=jdbc:mysql://db:3306/shop",
                "--spring.datasource.username=app", "--spring.datasource.password=secret");
    }

    @Test
    void givenAServerReachedThroughAProxy_thenItsAddressIsTheProxysAndItsCredentialsAreKept() {
        MariaDbEndpoint server = new MariaDbEndpoint("db.internal", 3306, "root", "pw");

        assertThat(server.through(41234)).isEqualTo(new MariaDbEndpoint("127.0.0.1", 41234, "root", "pw"));
    }
}
