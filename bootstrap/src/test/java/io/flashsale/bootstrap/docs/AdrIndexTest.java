package io.flashsale.bootstrap.docs;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/adr/README.md against the ADR files: one row per file and a file per row, each row's title and status as its
 * file says, "Amended by" the inverse of "Amends", each amended ADR's status naming its amender, and the line on
 * unused numbers listing exactly those. {@code docs/adr/regenerate-index.py} rewrites the table.
 */
class AdrIndexTest {

    private static final Path ADRS = Path.of(System.getProperty("basedir", ".")).resolve("../docs/adr").normalize();
    private static final Pattern FILE = Pattern.compile("(\\d{4})-.+\\.md");
    private static final Pattern LINK = Pattern.compile("\\[(\\d+)]\\(([^)]+)\\)");
    private static final Pattern UNUSED = Pattern.compile("^Numbers (.+) were never used", Pattern.MULTILINE);

    private static Map<Integer, Adr> files;
    private static Map<Integer, Row> rows;
    private static String index;

    record Adr(String file, String title, String status, String statusParagraph, String text) {
    }

    record Row(String file, String title, String status, Set<Integer> amends, Set<Integer> amendedBy) {
    }

    @BeforeAll
    static void read() throws IOException {
        files = new TreeMap<>();
        try (Stream<Path> paths = Files.list(ADRS)) {
            for (Path path : paths.toList()) {
                Matcher name = FILE.matcher(path.getFileName().toString());
                if (name.matches()) {
                    files.put(Integer.parseInt(name.group(1)), adr(path));
                }
            }
        }
        index = Files.readString(ADRS.resolve("README.md"));
        rows = new TreeMap<>();
        for (String line : index.lines().filter(line -> line.startsWith("| [")).toList()) {
            String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
            Matcher first = LINK.matcher(cells[0]);
            assertThat(first.find()).as(line).isTrue();
            Row previous = rows.put(Integer.parseInt(first.group(1)), new Row(first.group(2), cells[1].strip(),
                    cells[2].strip(), numbers(cells[3]), numbers(cells[4])));
            assertThat(previous).as("a second row for ADR %s", first.group(1)).isNull();
        }
    }

    private static Adr adr(Path path) throws IOException {
        String text = Files.readString(path);
        List<String> lines = text.lines().toList();
        String title = lines.getFirst().replaceFirst("^#\\s*\\d+\\.\\s*", "").strip();
        int start = IntStream.range(0, lines.size()).filter(i -> lines.get(i).startsWith("Status:")).findFirst()
                .orElseThrow(() -> new AssertionError(path + " has no Status: line"));
        List<String> paragraph = new ArrayList<>();
        for (int i = start; i < lines.size() && !lines.get(i).isBlank(); i++) {
            paragraph.add(lines.get(i));
        }
        String status = String.join(" ", paragraph);
        Matcher word = Pattern.compile("Status:\\s*([A-Za-z]+)").matcher(status);
        assertThat(word.find()).as(path + "'s status").isTrue();
        return new Adr(path.getFileName().toString(), title, word.group(1).toLowerCase(), status, text);
    }

    private static Set<Integer> numbers(String cell) {
        Set<Integer> numbers = new TreeSet<>();
        Matcher link = LINK.matcher(cell);
        while (link.find()) {
            numbers.add(Integer.parseInt(link.group(1)));
        }
        return numbers;
    }

    @Test
    void givenTheAdrFiles_whenTheIndexIsRead_thenEveryFileHasARowAndEveryRowAFile() {
        assertThat(rows.keySet()).as("the index's rows against docs/adr's files (regenerate-index.py)")
                .containsExactlyElementsOf(files.keySet());
        rows.forEach((number, row) -> assertThat(row.file()).as("ADR %d's link", number)
                .isEqualTo(files.get(number).file()));
    }

    @Test
    void givenARow_whenComparedWithItsFile_thenTitleAndStatusAreTheFilesOwn() {
        rows.forEach((number, row) -> {
            Adr adr = files.get(number);
            if (adr != null) {
                assertThat(row.title()).as("ADR %d's title", number).isEqualTo(adr.title());
                assertThat(row.status()).as("ADR %d's status", number).isEqualTo(adr.status());
            }
        });
    }

    @Test
    void givenTheAmendsColumn_whenInverted_thenItIsTheAmendedByColumn() {
        rows.forEach((number, row) -> {
            Set<Integer> amenders = new TreeSet<>();
            rows.forEach((other, otherRow) -> {
                if (otherRow.amends().contains(number)) {
                    amenders.add(other);
                }
            });
            assertThat(row.amendedBy()).as("ADR %d's \"Amended by\"", number).containsExactlyElementsOf(amenders);
        });
    }

    @Test
    void givenAnAdrThatAmendsAnother_whenBothAreRead_thenEachNamesTheOther() {
        rows.forEach((amender, row) -> row.amends().forEach(amended -> {
            assertThat(files).as("ADR %d amends ADR %d", amender, amended).containsKey(amended);
            assertThat(files.get(amender).text()).as("ADR %d names the ADR it amends", amender)
                    .containsPattern("ADR " + amended + "\\b");
            assertThat(files.get(amended).statusParagraph()).as("ADR %d's status names its amender ADR %d",
                    amended, amender).containsPattern("ADR " + amender + "\\b");
        }));
    }

    @Test
    void givenTheNumbersInUse_whenTheGapsAreListed_thenExactlyTheUnusedOnesAreNamed() {
        int highest = files.keySet().stream().mapToInt(Integer::intValue).max().orElseThrow();
        Set<Integer> unused = new TreeSet<>();
        IntStream.rangeClosed(1, highest).filter(n -> !files.containsKey(n)).forEach(unused::add);

        Matcher line = UNUSED.matcher(index);
        Set<Integer> listed = new TreeSet<>();
        if (line.find()) {
            Matcher range = Pattern.compile("(\\d+)(?:-(\\d+))?").matcher(line.group(1));
            while (range.find()) {
                int from = Integer.parseInt(range.group(1));
                int to = range.group(2) == null ? from : Integer.parseInt(range.group(2));
                IntStream.rangeClosed(from, to).forEach(listed::add);
            }
        }
        assertThat(listed).as("the numbers the index calls unused").containsExactlyElementsOf(unused);
    }
}
