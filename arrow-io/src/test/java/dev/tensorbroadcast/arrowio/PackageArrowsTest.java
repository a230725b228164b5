package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The arrows between arrow-io's packages, read from the sources' imports and qualified names (comments included): each
 * format is one package over the format seam, the seam knows no format, and nothing points back up. job's
 * {@code PackageArrowsTest} is this test's twin for the pipeline; docs/architecture.md draws the same arrows.
 */
class PackageArrowsTest {
    /**
     * What each package of arrow-io may name of the others ({@code ""} is {@code arrowio} itself: the tensors, batches
     * and kernels every format writes). A package not listed here fails the test: a new one says where it stands.
     */
    static final Map<String, Set<String>> ARROWS = Map.of(
            // the registry and the datasets of any format: the only package that names every format
            "source", Set.of("format", "format.arrow", "format.parquet", "format.npy", "format.zarr", "kept", ""),
            // one package per format, over the seam; Parquet's columns are read through their Arrow schema
            "format.arrow", Set.of("format", "kept", ""),
            "format.parquet", Set.of("format", "format.arrow", "kept", ""),
            "format.npy", Set.of("format", ""),
            "format.zarr", Set.of("format", ""),
            // the seam: what a format is and what the formats share
            "format", Set.of("kept", ""),
            "reduce", Set.of(""),
            "", Set.of("kept"),
            "kept", Set.of());

    private static final Pattern PROJECT_NAME =
            Pattern.compile("dev\\.tensorbroadcast\\.arrowio((?:\\.[a-z][a-z0-9]*)*)\\.[A-Z*]");
    private static final Pattern PACKAGE =
            Pattern.compile("^package dev\\.tensorbroadcast\\.arrowio((?:\\.[a-z][a-z0-9]*)*);", Pattern.MULTILINE);

    @Test
    void packagesNameOnlyWhatTheyStandOn() {
        List<Arrow> arrows = arrows(Path.of("src", "main", "java"));
        // the scan reads what it should: known arrows are among those found (else the test could not fail)
        assertThat(arrows).extracting(Arrow::text).contains("format.parquet -> format", "source -> format.zarr");

        List<String> wrong = new ArrayList<>();
        for (Arrow arrow : arrows) {
            Set<String> allowed = ARROWS.get(arrow.from());
            if (allowed == null) {
                wrong.add(arrow.text() + " (" + arrow.file() + "): '" + arrow.from() + "' is not in ARROWS");
            } else if (!allowed.contains(arrow.to())) {
                wrong.add(arrow.text() + " (" + arrow.file() + ")");
            }
        }
        assertThat(wrong).as("names against arrow-io's arrows").isEmpty();
    }

    @Test
    void theAllowedArrowsHaveNoCycle() {
        Set<String> done = new HashSet<>();
        for (String from : ARROWS.keySet()) {
            assertThat(cycleFrom(from, new ArrayList<>(), done))
                    .as("a cycle through '" + from + "'")
                    .isEmpty();
        }
    }

    @Test
    void everyRegisteredFormatHasItsOwnPackage() {
        Set<String> formats = new TreeSet<>();
        for (String pkg : ARROWS.keySet()) {
            if (pkg.startsWith("format.")) {
                formats.add(pkg.substring("format.".length()));
            }
        }
        assertThat(formats).containsExactlyInAnyOrder("arrow", "parquet", "npy", "zarr");
        for (String format : formats) {
            assertThat(ARROWS.get("format")).as("the seam names no format").doesNotContain("format." + format);
        }
    }

    private static List<String> cycleFrom(String from, List<String> path, Set<String> done) {
        if (path.contains(from)) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(from), path.size()));
            cycle.add(from);
            return cycle;
        }
        if (done.contains(from)) {
            return List.of();
        }
        path.add(from);
        for (String to : ARROWS.getOrDefault(from, Set.of())) {
            List<String> cycle = cycleFrom(to, path, done);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        path.remove(path.size() - 1);
        done.add(from);
        return List.of();
    }

    /** One source file naming another package of arrow-io: packages under {@code arrowio}, {@code ""} for it. */
    record Arrow(String from, String to, String file) {
        String text() {
            return from + " -> " + to;
        }
    }

    private static List<Arrow> arrows(Path sources) {
        Set<Arrow> arrows = new TreeSet<>((a, b) -> (a.text() + a.file()).compareTo(b.text() + b.file()));
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file :
                    files.filter(path -> path.toString().endsWith(".java")).toList()) {
                String text = Files.readString(file);
                Matcher declared = PACKAGE.matcher(text);
                if (!declared.find()) {
                    continue;
                }
                String from = strip(declared.group(1));
                Matcher named = PROJECT_NAME.matcher(text.substring(declared.end()));
                while (named.find()) {
                    String to = strip(named.group(1));
                    if (!to.equals(from)) {
                        arrows.add(new Arrow(from, to, file.getFileName().toString()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ArrayList<>(arrows);
    }

    private static String strip(String dotted) {
        return dotted.isEmpty() ? "" : dotted.substring(1);
    }
}
