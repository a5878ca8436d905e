package io.flashsale.bootstrap.alerts;

import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;

/** The rules of docs/ops/alerts.yml as parsed YAML, for tests that check them or expect one to fire. */
public final class AlertRuleFile {

    private AlertRuleFile() {
    }

    public static List<Map<String, Object>> rules() {
        try {
            Map<String, Object> file = new Yaml().load(Files.readString(Promtool.RULES));
            return ((List<?>) file.get("groups")).stream()
                    .flatMap(group -> ((List<?>) map(group).get("rules")).stream()).map(AlertRuleFile::map).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Map<String, Object> rule(String alert) {
        return rules().stream().filter(rule -> alert.equals(rule.get("alert"))).findFirst()
                .orElseThrow(() -> new AssertionError("no alert " + alert + " in " + Promtool.RULES));
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
