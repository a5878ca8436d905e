package io.flashsale.bootstrap.alerts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The alert rules an operator loads (docs/ops/alerts.yml): valid for Prometheus, each one with a {@code for:}, a
 * severity, a summary and a runbook line naming a section of docs/ops/README.md that exists, and each one shown
 * firing and not firing by the unit tests beside it (docs/ops/alerts-test.yml), which promtool runs here.
 */
@Timeout(180)
class AlertRulesTest {

    private static final Path RUNBOOK = Promtool.OPS_DOCS.resolve("README.md");
    private static final Pattern RUNBOOK_LINK = Pattern.compile("docs/ops/README\\.md#([a-z0-9-]+)");

    @Test
    void whenPromtoolChecksTheRules_thenTheyAreValid() {
        Promtool promtool = Promtool.requiredInCiElseSkip("AlertRulesTest");

        Promtool.Result checked = promtool.run(Promtool.OPS_DOCS, "check", "rules", Promtool.RULES.toString());

        assertThat(checked.exitCode()).as(checked.output()).isZero();
    }

    @Test
    void whenPromtoolRunsTheRuleTests_thenEveryCaseHolds() {
        Promtool promtool = Promtool.requiredInCiElseSkip("AlertRulesTest");

        Promtool.Result tested = promtool.run(Promtool.OPS_DOCS, "test", "rules", Promtool.RULE_TESTS.toString());

        assertThat(tested.exitCode()).as(tested.output()).isZero();
        assertThat(tested.output()).contains("SUCCESS");
    }

    @Test
    void everyAlert_hasAForASeverityASummaryAndARunbookLineLinkingASectionThatExists() throws IOException {
        Set<String> sections = headingAnchors(Files.readString(RUNBOOK));
        List<Map<String, Object>> rules = AlertRuleFile.rules();
        assertThat(rules).hasSizeGreaterThanOrEqualTo(10);

        for (Map<String, Object> rule : rules) {
            String alert = (String) rule.get("alert");
            assertThat(rule.get("for")).as("for: of %s", alert).isNotNull();
            assertThat(AlertRuleFile.map(rule.get("labels")).get("severity")).as("severity of %s", alert)
                    .isIn("critical", "warning");
            Map<String, Object> annotations = AlertRuleFile.map(rule.get("annotations"));
            assertThat((String) annotations.get("summary")).as("summary of %s", alert).isNotBlank();
            String runbook = (String) annotations.get("runbook");
            assertThat(runbook).as("runbook of %s", alert).isNotBlank();
            Matcher link = RUNBOOK_LINK.matcher(runbook);
            assertThat(link.find()).as("%s links a section of docs/ops/README.md: %s", alert, runbook).isTrue();
            assertThat(sections).as("sections of docs/ops/README.md, linked by %s", alert).contains(link.group(1));
        }
    }

    @Test
    void everyAlert_isTestedBothFiringAndNotFiring() throws IOException {
        Set<String> firing = new HashSet<>();
        Set<String> silent = new HashSet<>();
        Map<String, Object> tests = new Yaml().load(Files.readString(Promtool.RULE_TESTS));
        for (Object test : (List<?>) tests.get("tests")) {
            for (Object check : (List<?>) AlertRuleFile.map(test).get("alert_rule_test")) {
                Map<String, Object> expectation = AlertRuleFile.map(check);
                String alert = (String) expectation.get("alertname");
                List<?> expected = (List<?>) expectation.get("exp_alerts");
                (expected == null || expected.isEmpty() ? silent : firing).add(alert);
            }
        }

        Set<String> alerts = AlertRuleFile.rules().stream().map(rule -> (String) rule.get("alert"))
                .collect(Collectors.toSet());
        assertThat(firing).as("alerts tested firing").containsAll(alerts);
        assertThat(silent).as("alerts tested not firing").containsAll(alerts);
    }

    /** The anchors a Markdown renderer gives the headings: lower case, punctuation dropped, spaces as hyphens. */
    static Set<String> headingAnchors(String markdown) {
        return markdown.lines().filter(line -> line.startsWith("#"))
                .map(line -> line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT)
                        .replaceAll("[^a-z0-9 -]", "").replace(' ', '-'))
                .collect(Collectors.toSet());
    }
}
