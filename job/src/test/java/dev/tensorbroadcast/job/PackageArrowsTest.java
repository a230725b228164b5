package dev.tensorbroadcast.job;

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
 * The arrows between the project's packages, read from the sources' imports and qualified names: {@code job}'s
 * packages import only down the pipeline, never in a cycle, and the modules point one way ({@code job -> arrow-io ->
 * planner}, {@code benchmarks -> arrow-io}, {@code local-cluster} alone). docs/architecture.md draws the same arrows:
 * change both together.
 */
class PackageArrowsTest {
    /**
     * What each package of {@code job} may import from the others. A package not listed here fails the test: a new
     * one says where it stands.
     */
    static final Map<String, Set<String>> JOB_ARROWS = Map.ofEntries(
            Map.entry(
                    "cli",
                    Set.of("job", "source", "pipeline", "sink", "commit", "manifest", "dataset", "store", "base")),
            Map.entry("job", Set.of("source", "pipeline", "sink", "commit", "manifest", "dataset", "store", "base")),
            Map.entry("pipeline", Set.of("source", "sink", "commit", "manifest", "dataset", "store", "base")),
            Map.entry("sql", Set.of("job", "source", "dataset", "sink", "commit", "manifest", "store", "base")),
            Map.entry("dataset", Set.of("sink", "commit", "manifest", "store", "base")),
            Map.entry("source", Set.of("store", "base")),
            Map.entry("sink", Set.of("manifest", "base")),
            Map.entry("commit", Set.of("sink", "manifest", "store", "base")),
            Map.entry("store", Set.of("sink", "manifest", "base")),
            Map.entry("manifest", Set.of("base")),
            Map.entry("base", Set.<String>of()));

    /** What each module's main code may name of the project's top-level packages (its own included). */
    static final Map<String, Set<String>> MODULE_ARROWS = Map.of(
            "planner", Set.of("planner"),
            "arrow-io", Set.of("arrowio", "planner"),
            "local-cluster", Set.of("localcluster"),
            "benchmarks", Set.of("benchmarks", "arrowio", "planner"),
            "job", Set.of("job", "arrowio", "planner", "localcluster"));

    /** A qualified name of the project's: the packages, then a class (capitalised) or a wildcard. */
    private static final Pattern PROJECT_NAME =
            Pattern.compile("dev\\.tensorbroadcast((?:\\.[a-z][a-z0-9]*)+)\\.[A-Z*]");

    private static final Pattern PACKAGE =
            Pattern.compile("^package dev\\.tensorbroadcast((?:\\.[a-z][a-z0-9]*)+);", Pattern.MULTILINE);

    @Test
    void jobPackagesImportOnlyDownThePipeline() {
        List<Arrow> arrows = arrows(Path.of("src", "main", "java"));
        // the scan reads what it should: a known arrow is among those found (else the test could not fail)
        assertThat(arrows).extracting(Arrow::text).contains("job.pipeline -> job.source");

        List<String> upward = new ArrayList<>();
        for (Arrow arrow : arrows) {
            String from = jobPackage(arrow.from());
            String to = jobPackage(arrow.to());
            if (from == null || to == null || from.equals(to)) {
                continue;
            }
            Set<String> allowed = JOB_ARROWS.get(from);
            if (allowed == null) {
                upward.add(arrow.text() + " (" + arrow.file() + "): job." + from + " is not in JOB_ARROWS");
            } else if (!allowed.contains(to)) {
                upward.add(arrow.text() + " (" + arrow.file() + ")");
            }
        }
        assertThat(upward).as("imports against the pipeline's arrows").isEmpty();
    }

    @Test
    void theAllowedArrowsHaveNoCycle() {
        Set<String> done = new HashSet<>();
        for (String from : JOB_ARROWS.keySet()) {
            assertThat(cycleFrom(from, new ArrayList<>(), done))
                    .as("a cycle through job." + from)
                    .isEmpty();
        }
    }

    @Test
    void modulesPointOneWay() {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<String, Set<String>> module : MODULE_ARROWS.entrySet()) {
            Path sources = Path.of("..", module.getKey(), "src", "main", "java");
            assertThat(sources).as(module.getKey()).isDirectory();
            for (Arrow arrow : arrows(sources)) {
                String top = arrow.to().split("\\.")[0];
                if (!module.getValue().contains(top)) {
                    wrong.add(module.getKey() + ": " + arrow.text() + " (" + arrow.file() + ")");
                }
            }
        }
        assertThat(wrong).as("modules naming what they may not know").isEmpty();
    }

    /** The path of a cycle reachable from {@code from} in {@link #JOB_ARROWS}, or empty. */
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
        for (String to : JOB_ARROWS.getOrDefault(from, Set.of())) {
            List<String> cycle = cycleFrom(to, path, done);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        path.remove(path.size() - 1);
        done.add(from);
        return List.of();
    }

    /** {@code job} for the API's package, the second part for {@code job.X} (and below), null outside {@code job}. */
    private static String jobPackage(String pkg) {
        String[] parts = pkg.split("\\.");
        if (!parts[0].equals("job")) {
            return null;
        }
        return parts.length == 1 ? "job" : parts[1];
    }

    /** One source file naming another package of the project: packages without {@code dev.tensorbroadcast.}. */
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
                String from = declared.group(1).substring(1);
                Matcher named = PROJECT_NAME.matcher(text.substring(declared.end()));
                while (named.find()) {
                    String to = named.group(1).substring(1);
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
}
