package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Hugging Face {@code save_to_disk} directory as {@code --input} (arrow-io's fixtures/huggingface, made with
 * {@code datasets}): its shards in order, its JSON files ignored, its other columns kept; read back by Spark.
 */
class HuggingFaceInputTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private Path fixture() throws Exception {
        return ClasspathFixtures.copy("/fixtures/huggingface/two-shards", dir.resolve("hf"));
    }

    @Test
    void aSequenceColumnExpandsWithItsOtherColumns() throws Exception {
        Path input = fixture();
        Path output = dir.resolve("out");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--column",
                "features",
                "--row-shape",
                "[1,8]",
                "--dialect",
                "pytorch",
                "--shape",
                "[-1,3,8]",
                "--format",
                "parquet",
                "--ship-threshold",
                "0",
                "--partitions",
                "3",
                "--keep",
                "user_id,label,name",
                "--output",
                output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        // flat rows, which datasets cannot read back: the run says so, and what writes rows it reads
        assertThat(run.err().lines().toList())
                .last()
                .isEqualTo("the input file:" + input + " is a Hugging Face"
                        + " dataset, but datasets cannot read these rows back (it has no feature for arrow.fixed_shape_tensor);"
                        + " --format parquet --row-layout nested writes rows it reads");
        List<Row> rows = SPARK.session()
                .read()
                .parquet(output.toString())
                .orderBy("index")
                .collectAsList();
        assertThat(rows).hasSize(40);
        for (Row row : rows) {
            long r = row.getLong(0);
            assertThat(row.getLong(row.fieldIndex("user_id"))).isEqualTo(r);
            assertThat(row.getInt(row.fieldIndex("label"))).isEqualTo((int) (r % 3));
            assertThat((String) row.getAs("name")).isEqualTo("u" + r);
            List<Object> tensor = row.getList(1);
            assertThat(tensor).hasSize(24);
            for (int k = 0; k < 24; k++) {
                assertThat(tensor.get(k)).isEqualTo((float) (r + (k % 8) / 8.0));
            }
        }
    }

    /** Nested Parquet rows are what datasets reads: no warning, and the read line names it. */
    @Test
    void nestedRowsOfAHuggingFaceInputNeedNoWarning() throws Exception {
        Path input = fixture();
        Path output = dir.resolve("nested");

        CliRun run = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--column",
                "grid",
                "--row-shape",
                "[1,2,4]",
                "--dialect",
                "pytorch",
                "--shape",
                "[-1,3,2,4]",
                "--format",
                "parquet",
                "--row-layout",
                "nested",
                "--keep",
                "none",
                "--output",
                output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).doesNotContain("Hugging Face dataset,");
        assertThat(run.err().lines().toList())
                .last()
                .asString()
                .endsWith(" in polars, DuckDB and Hugging Face"
                        + " datasets (the directory also holds _manifest.json and _SUCCESS)");
    }

    @Test
    void anArray2DColumnHasItsShapeFromTheDataset() throws Exception {
        Path input = fixture();
        Path output = dir.resolve("out");

        CliRun plan = CliRun.of(
                "plan",
                "--input",
                input.toString(),
                "--column",
                "grid",
                "--dialect",
                "numpy",
                "--shape",
                "40,2,4",
                "--keep",
                "none");
        CliRun run = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--column",
                "grid",
                "--row-shape",
                "[1,2,4]",
                "--dialect",
                "pytorch",
                "--shape",
                "[-1,3,2,4]",
                "--format",
                "parquet",
                "--keep",
                "user_id",
                "--output",
                output.toString());

        assertThat(plan.exitCode()).as(plan.err()).isZero();
        assertThat(plan.out()).contains("\ninputs        [40,2,4]\n");
        assertThat(run.exitCode()).as(run.err()).isZero();
        // flat rows, which datasets cannot read back: the run says so, and what writes rows it reads
        assertThat(run.err().lines().toList())
                .last()
                .isEqualTo("the input file:" + input + " is a Hugging Face"
                        + " dataset, but datasets cannot read these rows back (it has no feature for arrow.fixed_shape_tensor);"
                        + " --format parquet --row-layout nested writes rows it reads");
        List<Row> rows = SPARK.session()
                .read()
                .parquet(output.toString())
                .orderBy("index")
                .collectAsList();
        assertThat(rows).hasSize(40);
        for (Row row : rows) {
            long r = row.getLong(0);
            assertThat(row.getLong(row.fieldIndex("user_id"))).isEqualTo(r);
            List<Object> tensor = row.getList(1);
            for (int k = 0; k < 24; k++) {
                assertThat(tensor.get(k)).isEqualTo((float) (10 * r + k % 8));
            }
        }
    }
}
