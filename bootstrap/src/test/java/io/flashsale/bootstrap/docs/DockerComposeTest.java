package io.flashsale.bootstrap.docs;

import org.junit.jupiter.api.Test;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docker-compose.yml against what the service documents: every variable it gives the service is a property of the
 * README's configuration table, and reaches that property the way Spring maps environment variables; the servers are
 * the ones the README promises (Redis 7 with AOF, MySQL 8.4, a single-node KRaft Kafka), demo mode is off and buyers
 * sign in with tokens of the operator's issuer.
 */
class DockerComposeTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).resolve("..").normalize();
    private static final Pattern TICKED = Pattern.compile("`([^`]+)`");

    @Test
    void everyVariableOfTheServiceIsADocumentedPropertyAndBindsToIt() throws IOException {
        Map<String, String> environment = serviceEnvironment("flashsale");
        Set<String> documented = documentedProperties();

        var spring = new StandardEnvironment();
        spring.getPropertySources().addFirst(new SystemEnvironmentPropertySource("compose", Map.copyOf(environment)));
        for (Map.Entry<String, String> variable : environment.entrySet()) {
            String property = documented.stream().filter(name -> envNames(name).contains(variable.getKey()))
                    .findFirst().orElse(null);
            assertThat(property).as("%s is not in the README's configuration table", variable.getKey()).isNotNull();
            assertThat(spring.getProperty(property)).as(variable.getKey() + " -> " + property)
                    .isEqualTo(variable.getValue());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theServiceRunsOnRealServersWithDemoModeOff() throws IOException {
        Map<String, String> environment = serviceEnvironment("flashsale");

        assertThat(environment).containsEntry("FLASHSALE_EMBEDDED_ENABLED", "false")
                .containsEntry("SPRING_DATA_REDIS_HOST", "redis")
                .containsEntry("SPRING_KAFKA_BOOTSTRAP_SERVERS", "kafka:9092")
                .hasEntrySatisfying("SPRING_DATASOURCE_URL", url -> assertThat(url).startsWith("jdbc:mysql://mysql:3306/"));
        Map<String, Object> services = services();
        assertThat(String.valueOf(service(services, "redis").get("image"))).startsWith("redis:7");
        assertThat((List<Object>) service(services, "redis").get("command")).containsSequence("--appendonly", "yes");
        assertThat(String.valueOf(service(services, "mysql").get("image"))).startsWith("mysql:8.4");
        assertThat(serviceEnvironment("kafka")).containsEntry("KAFKA_PROCESS_ROLES", "broker,controller")
                .containsEntry("KAFKA_CONTROLLER_QUORUM_VOTERS", "1@kafka:9093");
    }

    /**
     * The environment variables Spring reads a property from: upper case, dots to underscores, dashes removed
     * (the canonical form) or turned into underscores (as SPRING_KAFKA_BOOTSTRAP_SERVERS).
     */
    static Set<String> envNames(String property) {
        String upper = property.replace('.', '_').toUpperCase(Locale.ROOT);
        return new LinkedHashSet<>(List.of(upper.replace("-", ""), upper.replace('-', '_')));
    }

    /**
     * The property column of the README's configuration table; a cell like {@code `a.b.c` / `d` / `e`} names
     * {@code a.b.c}, {@code a.b.d} and {@code a.b.e}.
     */
    static Set<String> documentedProperties() throws IOException {
        Set<String> properties = new LinkedHashSet<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(ROOT.resolve("README.md"))) {
            if (line.startsWith("| property |")) {
                inTable = true;
                continue;
            }
            if (inTable && !line.startsWith("|")) {
                break;
            }
            if (inTable && line.startsWith("| `")) {
                String cell = line.split("\\|")[1];
                Matcher ticked = TICKED.matcher(cell);
                String prefix = null;
                while (ticked.find()) {
                    String name = ticked.group(1);
                    if (prefix == null) {
                        prefix = name.substring(0, name.lastIndexOf('.') + 1);
                        properties.add(name);
                    } else {
                        properties.add(name.contains(".") ? name : prefix + name);
                    }
                }
            }
        }
        assertThat(properties).as("the README's configuration table").isNotEmpty();
        return properties;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> services() throws IOException {
        Map<String, Object> compose = new Yaml().load(Files.readString(ROOT.resolve("docker-compose.yml")));
        return (Map<String, Object>) compose.get("services");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> service(Map<String, Object> services, String name) {
        Map<String, Object> service = (Map<String, Object>) services.get(name);
        assertThat(service).as("service " + name).isNotNull();
        return service;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> serviceEnvironment(String name) throws IOException {
        Map<String, Object> environment = (Map<String, Object>) service(services(), name).get("environment");
        Map<String, String> values = new LinkedHashMap<>();
        // ${VAR:-default} is compose's interpolation: the service sees the default unless VAR is set;
        // ${VAR:?message} refuses to start without VAR, so the service sees whatever the operator set.
        environment.forEach((key, value) -> values.put(key, String.valueOf(value)
                .replaceAll("^\\$\\{[A-Z_]+:-(.*)}$", "$1")
                .replaceAll("^\\$\\{([A-Z_]+):\\?.*}$", "set-by-the-operator-$1")));
        return values;
    }

    @Test
    @SuppressWarnings("unchecked")
    void theAdminTokenHasNoDefaultAndTheActuatorIsPublishedOnLoopbackOnly() throws IOException {
        Map<String, Object> service = service(services(), "flashsale");
        Map<String, Object> environment = (Map<String, Object>) service.get("environment");

        assertThat(String.valueOf(environment.get("FLASHSALE_ADMIN_TOKEN"))).startsWith("${FLASHSALE_ADMIN_TOKEN:?");
        assertThat((List<Object>) service.get("ports")).contains("8080:8080", "127.0.0.1:8081:8081");
        assertThat(String.valueOf(environment.get("MANAGEMENT_SERVER_PORT"))).isEqualTo("8081");
    }

    @Test
    @SuppressWarnings("unchecked")
    void buyersSignInWithTokensOfTheOperatorsIssuerAndNeverByAHeaderAlone() throws IOException {
        Map<String, Object> service = service(services(), "flashsale");
        Map<String, String> environment = serviceEnvironment("flashsale");

        assertThat(environment).doesNotContainKey("FLASHSALE_SECURITY_BUYER_AUTH")
                .containsEntry("SPRING_SECURITY_OAUTH2_RESOURCESERVER_JWT_PUBLIC_KEY_LOCATION",
                        "file:/app/buyer-issuer.pem");
        assertThat((List<Object>) service.get("volumes")).anySatisfy(volume -> assertThat(String.valueOf(volume))
                .startsWith("${FLASHSALE_BUYER_PUBLIC_KEY:?").endsWith(":/app/buyer-issuer.pem:ro"));
    }
}
