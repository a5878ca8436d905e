package io.flashsale.bootstrap.docs;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The table of out-ports in {@code docs/extending-adapters.md}, made from the code: every interface in a
 * capability's {@code port.out} package but the sealed ones (results a port returns), the first sentence of its
 * Javadoc, and the production classes that implement it. Each run writes the table and fails when the committed one
 * differed: the next run passes, and the diff shows what to commit with the change (as {@code OpenApiSpecIT} does for
 * the API).
 */
class OutPortsTableTest {

    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).resolve("..").normalize();
    private static final Path DOC = ROOT.resolve("docs/extending-adapters.md");
    private static final Path SOURCES = ROOT.resolve("application/src/main/java");
    /** Each capability's out-ports (ADR 95). */
    private static final Pattern PORT_PACKAGE = Pattern.compile("io\\.flashsale\\.application\\.\\w+\\.port\\.out");
    private static final String START = "<!-- out-ports:start -->";
    private static final String END = "<!-- out-ports:end -->";
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[A-Z(`])");
    private static final Pattern CODE = Pattern.compile("\\{@(?:code|link|linkplain)\\s+([^}]+)}");

    @Test
    void whenTheOutPortsAreListedFromTheCode_thenTheCommittedTableIsTheSame() throws IOException {
        String table = table();
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int start = doc.indexOf(START);
        int end = doc.indexOf(END);
        assertThat(start).as("%s holds the markers %s and %s", DOC, START, END).isNotNegative();
        assertThat(end).as("%s's end marker", DOC).isGreaterThan(start);

        String written = doc.substring(0, start + START.length()) + "\n" + table + doc.substring(end);
        Files.writeString(DOC, written, StandardCharsets.UTF_8);
        assertThat(doc).as("docs/extending-adapters.md's out-port table was out of date and has been rewritten; commit it")
                .isEqualTo(written);
    }

    @Test
    void whenTheTableIsMade_thenEveryPortSaysWhatItPromisesAndTheStoresHaveAnAdapter() throws IOException {
        Map<String, Row> rows = rows();
        assertThat(rows).hasSizeGreaterThan(20);
        rows.forEach((port, row) -> assertThat(row.promise()).as("%s's Javadoc", port).isNotBlank());
        assertThat(rows.get("StockReservationPort").implementations()).contains("adapter-redis: `RedisStockReservationAdapter`");
        assertThat(rows.get("OrderPlacementPort").implementations()).startsWith("adapter-mysql: ");
    }

    record Row(String promise, String implementations) {
    }

    private static String table() throws IOException {
        StringBuilder table = new StringBuilder("| port | what it promises | implemented by |\n| --- | --- | --- |\n");
        rows().forEach((port, row) -> table.append("| `").append(port).append("` | ").append(row.promise())
                .append(" | ").append(row.implementations()).append(" |\n"));
        return table.toString();
    }

    private static Map<String, Row> rows;

    /** Made once for both tests: importing every product class is this test's whole cost. */
    private static synchronized Map<String, Row> rows() throws IOException {
        if (rows == null) {
            rows = importRows();
        }
        return rows;
    }

    private static Map<String, Row> importRows() throws IOException {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("/io/flashsale/testsupport/"))
                .importPackages("io.flashsale");
        Map<String, Row> rows = new TreeMap<>();
        for (JavaClass port : classes) {
            if (port.isInterface() && PORT_PACKAGE.matcher(port.getPackageName()).matches() && port.isTopLevelClass()
                    && !port.reflect().isSealed()) {
                rows.put(port.getSimpleName(), new Row(promise(port), implementations(port)));
            }
        }
        return rows;
    }

    /** "module: `Class`, `Class`; module: ..." of the named classes implementing the port, lambdas aside. */
    private static String implementations(JavaClass port) {
        Map<String, TreeSet<String>> byModule = new TreeMap<>(Comparator.comparing(OutPortsTableTest::moduleOrder)
                .thenComparing(Comparator.naturalOrder()));
        port.getAllSubclasses().stream()
                .filter(type -> !type.isInterface() && !type.isAnonymousClass() && !type.getSimpleName().isEmpty())
                .forEach(type -> byModule.computeIfAbsent(module(type), module -> new TreeSet<>())
                        .add("`" + type.getName().substring(type.getPackageName().length() + 1).replace('$', '.') + "`"));
        if (byModule.isEmpty()) {
            return "a lambda or method reference where it is wired";
        }
        return byModule.entrySet().stream().map(entry -> entry.getKey() + ": " + String.join(", ", entry.getValue()))
                .collect(Collectors.joining("; "));
    }

    private static String module(JavaClass type) {
        String name = type.getPackageName();
        if (name.startsWith("io.flashsale.adapter.")) {
            return "adapter-" + name.substring("io.flashsale.adapter.".length()).split("\\.")[0];
        }
        return name.split("\\.")[2];
    }

    /** Adapters first: they are what a reader of this table is looking for. */
    private static int moduleOrder(String module) {
        return module.startsWith("adapter-") ? 0 : module.equals("bootstrap") ? 1 : 2;
    }

    /** The first sentence of the interface's Javadoc, as Markdown. */
    private static String promise(JavaClass type) throws IOException {
        String port = type.getSimpleName();
        String source = Files.readString(SOURCES.resolve(type.getName().replace('.', '/') + ".java"),
                StandardCharsets.UTF_8);
        Matcher declaration = Pattern.compile("^public\\s+(?:sealed\\s+)?interface\\s+" + port + "\\b", Pattern.MULTILINE)
                .matcher(source);
        assertThat(declaration.find()).as("%s declares interface %s", port, port).isTrue();
        int open = source.lastIndexOf("/**", declaration.start());
        int close = source.indexOf("*/", open);
        assertThat(open).as("%s has a Javadoc", port).isNotNegative();
        String text = source.substring(open + 3, close).lines().map(line -> line.strip().replaceFirst("^\\*\\s?", ""))
                .collect(Collectors.joining(" "));
        text = text.split("<p>")[0].replaceAll("\\s+", " ").strip();
        String first = SENTENCE_END.split(text, 2)[0];
        return CODE.matcher(first).replaceAll(match -> Matcher.quoteReplacement("`" + match.group(1).strip() + "`"))
                .replace("|", "\\|");
    }
}
