package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One Arrow IPC file or stream polars wrote with its defaults (arrow-io's fixtures/polars) as {@code --input}: its
 * {@code large_list} column expanded, its {@code Utf8View}, {@code BinaryView} and categorical columns kept as
 * strings and binaries; read back by Spark.
 */
class PolarsInputTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"table.arrow", "table-stream.arrow"})
    void aPolarsTableExpandsWithItsOtherColumns(String file) throws Exception {
        Path input = dir.resolve(file);
        ClasspathFixtures.copy("/fixtures/polars/" + file, input);
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
                "[-1,2,8]",
                "--format",
                "parquet",
                "--keep",
                "user_id,name,blob,kind",
                "--ship-threshold",
                "0",
                "--partitions",
                "2",
                "--output",
                output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Row> rows = SPARK.session()
                .read()
                .parquet(output.toString())
                .orderBy("index")
                .collectAsList();
        assertThat(rows).hasSize(30);
        for (Row row : rows) {
            long r = row.getLong(0);
            assertThat(row.getLong(row.fieldIndex("user_id"))).isEqualTo(r);
            assertThat((String) row.getAs("name")).isEqualTo(r % 7 == 0 ? null : "u" + r);
            assertThat((byte[]) row.getAs("blob")).containsExactly((int) r, (int) r + 1);
            assertThat((String) row.getAs("kind")).isEqualTo("k" + r % 4);
            assertThat(row.getList(1).get(15)).isEqualTo((float) (r + 7 / 8.0));
        }
    }
}
