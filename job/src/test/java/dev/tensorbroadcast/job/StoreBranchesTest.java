package dev.tensorbroadcast.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The pipeline asks its store ({@code job.store.Store}) and never tests a scheme or a file system's kind itself: a
 * branch on {@code s3a}, {@code file} or {@code hdfs}, on a URI's scheme, on Hadoop's local file system classes or
 * on S3A's staging names, anywhere in {@code job}'s main code outside {@code job.store}, fails here, as an arrow
 * against the pipeline fails {@link PackageArrowsTest}. docs/architecture.md says where such a difference goes.
 */
class StoreBranchesTest {
    /** What a test of the store looks like; comments and javadoc are not code and are skipped. */
    static final Pattern BRANCH = Pattern.compile("\"(s3a|file|hdfs)\"\\.equals|equals\\(\"(s3a|file|hdfs)\"\\)"
            + "|getScheme\\(\\)|instanceof (Raw)?LocalFileSystem|RawLocalFileSystem\\)|contains\\(\"s3a://\"\\)"
            + "|startsWith\\(\"(file|s3a|hdfs):|\"__magic");

    private static final Path STORE = Path.of("dev", "tensorbroadcast", "job", "store");

    @Test
    void noSchemeIsTestedOutsideTheStores() {
        Path sources = Path.of("src", "main", "java");
        List<String> branches = branches(sources);
        assertThat(branches)
                .as("branches on a store's scheme or kind outside job.store")
                .isEmpty();
        // the scan reads what it should: the stores themselves hold such tests (else this test could not fail)
        assertThat(branchesUnder(sources.resolve(STORE))).isNotEmpty();
    }

    @Test
    void theScanFindsABranchInCode() {
        assertThat(BRANCH.matcher("if (\"s3a\".equals(path.toUri().getScheme())) {")
                        .find())
                .isTrue();
        assertThat(BRANCH.matcher("json.put(\"file\", result.file().toString());")
                        .find())
                .isFalse();
        assertThat(BRANCH.matcher("((RawLocalFileSystem) fileSystem).pathToFile(path)")
                        .find())
                .isTrue();
        assertThat(BRANCH.matcher("output instanceof LocalFileSystem local").find())
                .isTrue();
    }

    private static List<String> branches(Path sources) {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file :
                    files.filter(path -> path.toString().endsWith(".java")).toList()) {
                if (!sources.relativize(file).startsWith(STORE)) {
                    found.addAll(branchesIn(file));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    private static List<String> branchesUnder(Path directory) {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(directory)) {
            files.filter(path -> path.toString().endsWith(".java")).forEach(file -> found.addAll(branchesIn(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    private static List<String> branchesIn(Path file) {
        List<String> found = new ArrayList<>();
        try {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (!line.startsWith("*")
                        && !line.startsWith("//")
                        && !line.startsWith("/*")
                        && BRANCH.matcher(line).find()) {
                    found.add(file.getFileName() + ":" + (i + 1) + ": " + line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }
}
