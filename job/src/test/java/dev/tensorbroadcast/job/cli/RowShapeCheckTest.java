package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code --row-shape} against the rows of a dataset Spark wrote ({@code array<float>} of 32 values a row): one that
 * fits no row is refused by {@code plan} and {@code expand} from each file's first row, before Spark runs anything;
 * a single bad row further on is found by the task that reads it, and said in one line too.
 */
class RowShapeCheckTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    private static final int VALUES = 32;

    @TempDir
    Path dir;

    /** 100 rows of 32 floats in two files as Spark writes them; row {@code shortRow} (if any) has 31. */
    private Path sparkWritten(String name, int shortRow) {
        List<Row> rows = new ArrayList<>();
        for (int r = 0; r < 100; r++) {
            float[] values = new float[r == shortRow ? VALUES - 1 : VALUES];
            for (int k = 0; k < values.length; k++) {
                values[k] = r * 1000 + k;
            }
            rows.add(RowFactory.create((Object) values));
        }
        StructType schema = new StructType().add("features", DataTypes.createArrayType(DataTypes.FloatType, false));
        Path written = dir.resolve(name);
        SPARK.session()
                .createDataFrame(rows, schema)
                .coalesce(1)
                .write()
                .option("maxRecordsPerFile", 50)
                .parquet(written.toString());
        return written;
    }

    private static Path firstPart(Path dataset) throws Exception {
        try (Stream<Path> files = Files.list(dataset)) {
            return files.filter(file -> file.getFileName().toString().startsWith("part-")
                            && file.getFileName().toString().endsWith(".parquet"))
                    .sorted()
                    .findFirst()
                    .orElseThrow();
        }
    }

    @Test
    void aRowShapeThatFitsNoRowIsRefusedByPlanAndExpandBeforeSpark() throws Exception {
        Path input = sparkWritten("features", -1);
        String line = "Cannot read file:" + firstPart(input) + ": row 0 has 32 values; every row needs 128"
                + " (--row-shape [4,32]); a --row-shape of 32 values, such as [32] or [1,32], fits it";

        CliRun plan = CliRun.of(
                "plan",
                "--input",
                input.toString(),
                "--row-shape",
                "[4,32]",
                "--dialect",
                "numpy",
                "--shape",
                "100,4,32");
        CliRun json = CliRun.of(
                "plan",
                "--input",
                input.toString(),
                "--row-shape",
                "[4,32]",
                "--dialect",
                "numpy",
                "--shape",
                "100,4,32",
                "--json");
        Path output = dir.resolve("out");
        CliRun expand = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--row-shape",
                "[4,32]",
                "--dialect",
                "numpy",
                "--shape",
                "100,4,32",
                "--output",
                output.toString(),
                "--ship-threshold",
                "1k");

        assertThat(plan.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(plan.out()).isEmpty();
        assertThat(plan.err()).isEqualTo(line + System.lineSeparator());
        assertThat(json.json().at("/error/kind").asText()).isEqualTo("source_format");
        assertThat(json.json().at("/error/message").asText()).isEqualTo(line);
        // refused before Spark: no line saying what will be written, nothing written
        assertThat(expand.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(expand.err()).isEqualTo(line + System.lineSeparator());
        assertThat(output).doesNotExist();
        // the shape that fits is taken
        CliRun fits = CliRun.of(
                "plan",
                "--input",
                input.toString(),
                "--row-shape",
                "[1,32]",
                "--dialect",
                "numpy",
                "--shape",
                "100,4,32");
        assertThat(fits.exitCode()).as(fits.err()).isZero();
    }

    @Test
    void aBadRowFurtherOnIsFoundByItsTaskAndSaidInOneLine() throws Exception {
        Path input = sparkWritten("features", 70);
        Path output = dir.resolve("out");

        CliRun expand = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--row-shape",
                "[32]",
                "--dialect",
                "numpy",
                "--shape",
                "100,32",
                "--output",
                output.toString(),
                "--ship-threshold",
                "1k");

        assertThat(expand.exitCode()).as(expand.err()).isEqualTo(ExitCode.REFUSED);
        List<String> lines = expand.err().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("writing [100,32] float32");
        assertThat(lines.get(1))
                .matches("Cannot read file:" + input + "/part-\\S+\\.parquet: row 20 has 31 values;"
                        + " every row needs 32 \\(--row-shape\\)");
        assertThat(output.resolve(Manifest.SUCCESS_FILE_NAME)).doesNotExist();
    }
}
