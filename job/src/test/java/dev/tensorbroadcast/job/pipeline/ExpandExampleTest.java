package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.examples.ExpandExample;
import dev.tensorbroadcast.job.manifest.Manifest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The README's Java program (examples/java), compiled with the tests, run as a user runs it. */
class ExpandExampleTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    @Test
    void writesTheFilesAndTheRowsTheReadmeSays() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row3.npy"), new long[] {1, 3});
        Path output = dir.resolve("example");
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            ExpandExample.main(new String[] {source.toString(), output.toString()});
        } finally {
            System.setOut(stdout);
        }

        assertThat(printed.toString(StandardCharsets.UTF_8).strip())
                .isEqualTo("wrote 1000 rows of [3] in 1 file; 8 rows in memory, the last [0.5, 1.5, 2.5]");
        Manifest manifest = DatasetFiles.manifest(output);
        assertThat(manifest.format()).isEqualTo("parquet");
        List<Row> rows = SPARK.session()
                .read()
                .parquet(output.toString())
                .orderBy("index")
                .collectAsList();
        assertThat(rows).hasSize(1000);
        assertThat(rows.get(999).getList(1)).containsExactly(NpyFiles.value(0), NpyFiles.value(1), NpyFiles.value(2));
        // the README's Spark recipe for the row shape
        // (Spark's file sources skip names starting with '_', so the manifest is read as a string first)
        Row rowShape = SPARK.session()
                .read()
                .json(SPARK.session()
                        .createDataset(
                                List.of(Files.readString(output.resolve("_manifest.json"))),
                                org.apache.spark.sql.Encoders.STRING()))
                .select("row_shape")
                .first();
        assertThat(rowShape.getList(0)).containsExactly(3L);
    }

    /**
     * Plain {@code java} without Arrow's opening, as an application may start: one line naming the option to add,
     * not Arrow's failure deep in its first allocation.
     */
    @Test
    void aJvmWithoutArrowsOpeningIsToldWhichOptionToAdd() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row3.npy"), new long[] {1, 3});
        Path log = dir.resolve("java.log");
        Process java = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        "-Dspark.master=local[1]",
                        "-Dspark.ui.enabled=false",
                        ExpandExample.class.getName(),
                        source.toString(),
                        dir.resolve("out").toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(java.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String printed = Files.readString(log);
        assertThat(java.exitValue()).as(printed).isEqualTo(1);
        assertThat(printed)
                .as(printed)
                .contains("java.lang.IllegalStateException: Cannot run tensor-broadcast in this"
                        + " JVM: java.base does not open java.nio to it; start the JVM with"
                        + " --add-opens=java.base/java.nio=ALL-UNNAMED (spark-submit adds it, with the other openings Spark"
                        + " uses; see the README's Java section)");
        assertThat(dir.resolve("out")).doesNotExist();
    }
}
