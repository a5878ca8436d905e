package io.flashsale.testsupport;

import org.springframework.test.context.DynamicPropertyRegistry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code spring.datasource} url, username and password that point a service at one test database, in the three
 * forms tests hand them over: a {@link DynamicPropertyRegistry}, a property map (a forked jar), command-line arguments.
 * Get one from {@link MariaDbEndpoint#springDatasource(String)}.
 */
public record SpringDatasource(String url, String username, String password) {

    public static final String URL = "spring.datasource.url";
    public static final String USERNAME = "spring.datasource.username";
    public static final String PASSWORD = "spring.datasource.password";

    public void registerIn(DynamicPropertyRegistry registry) {
        properties().forEach((name, value) -> registry.add(name, () -> value));
    }

    /** In this order: url, username, password. */
    public Map<String, String> properties() {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(URL, url);
        properties.put(USERNAME, username);
        properties.put(PASSWORD, password);
        return properties;
    }

    /** {@code --name=value} each: as arguments they win over application.yaml, as an operator's command line does. */
    public List<String> arguments() {
        return properties().entrySet().stream().map(property -> "--" + property.getKey() + "=" + property.getValue())
                .toList();
    }
}
