package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.arrowio.source.DatasetFixtures;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.job.format.raw.RawFormat;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code inspect} on directories other tools wrote (Spark's DataFrame writer, parquet-java, Arrow Java): they are
 * said to be what they are, files {@code --input} reads, with exit 0, not an incomplete dataset of ours.
 */
class InspectForeignTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path tmp;

    @Test
    void aDirectorySparkWroteIsNotOursAndReadableAsInput() throws Exception {
        List<Row> rows = new ArrayList<>();
        for (int r = 0; r < 6; r++) {
            rows.add(RowFactory.create((Object) new float[] {r, r + 0.5f, r + 0.25f}));
        }
        Path written = tmp.resolve("spark");
        SPARK.session()
                .createDataFrame(
                        rows, new StructType().add("embedding", DataTypes.createArrayType(DataTypes.FloatType, false)))
                .coalesce(1)
                .write()
                .option("maxRecordsPerFile", 3)
                .parquet(written.toString());
        assertThat(written.resolve("_SUCCESS")).exists();

        CliRun inspect = CliRun.of("inspect", written.toString());
        JsonNode json = CliRun.of("inspect", written.toString(), "--json").json();

        assertThat(inspect.exitCode()).as(inspect.err()).isZero();
        assertThat(inspect.err()).isEmpty();
        assertThat(inspect.out())
                .isEqualTo("not ours: 2 Parquet files, readable as --input (" + written
                        + " has no _manifest.json: another tool wrote it)\n");
        assertThat(json.get("ours").asBoolean()).isFalse();
        assertThat(json.get("parquet_files").asInt()).isEqualTo(2);
        // and it is: as --input, with the row shape its lists have
        CliRun plan = CliRun.of(
                "plan", "--input", written.toString(), "--row-shape", "[3]", "--dialect", "numpy", "--shape", "6,3");
        assertThat(plan.exitCode()).as(plan.err()).isZero();
        assertThat(plan.out()).contains("inputs        [6,3]\n");
    }

    @Test
    void plainParquetAndArrowFilesAreNotOurs() throws Exception {
        Path parquet = Files.createDirectory(tmp.resolve("parquet"));
        DatasetFixtures.parquetJavaLists(parquet.resolve("features.parquet"), 0, 10, 4, false);
        Path mixed = Files.createDirectory(tmp.resolve("mixed"));
        DatasetFixtures.arrowLists(mixed.resolve("a.arrow"), "tensor", 0, 4, false, 5);
        DatasetFixtures.parquetJavaLists(mixed.resolve("b.parquet"), 5, 10, 4, true);

        CliRun plain = CliRun.of("inspect", parquet.toString());
        CliRun both = CliRun.of("inspect", mixed.toString());

        assertThat(plain.exitCode()).as(plain.err()).isZero();
        assertThat(plain.out()).startsWith("not ours: 1 Parquet file, readable as --input (");
        assertThat(both.exitCode()).as(both.err()).isZero();
        assertThat(both.out()).startsWith("not ours: 1 Arrow IPC file and 1 Parquet file, readable as --input (");
    }

    @Test
    void verifyAndExportRefuseAnotherToolsFilesAsNotOurs() throws Exception {
        Path parquet = Files.createDirectory(tmp.resolve("parquet"));
        DatasetFixtures.parquetJavaLists(parquet.resolve("features.parquet"), 0, 10, 4, false);
        Path npy = tmp.resolve("x.npy");

        CliRun verify = CliRun.of("verify", parquet.toString());
        CliRun export = CliRun.of("export", parquet.toString(), "--npy", npy.toString());

        assertThat(verify.exitCode()).isEqualTo(2);
        assertThat(verify.out()).isEmpty();
        assertThat(verify.err())
                .isEqualTo("Cannot verify " + parquet + ": not ours: 1 Parquet file, readable as an"
                        + " input (" + parquet
                        + " has no _manifest.json: another tool wrote it); verify reads only datasets"
                        + " tensor-broadcast wrote\n");
        assertThat(export.exitCode()).isEqualTo(2);
        assertThat(export.err())
                .startsWith("Cannot export " + parquet + ": not ours: 1 Parquet file, readable as an" + " input (");
        assertThat(npy).doesNotExist();
    }

    /** Files of a format only a registration adds are counted as that format's, by their first bytes. */
    @Test
    void filesOfAnyRegisteredFormatAreCounted() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("raw"));
        Files.write(dir.resolve("a.raw"), "RAWTNS and more".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        DatasetFixtures.parquetJavaLists(dir.resolve("b.parquet"), 0, 10, 4, false);

        CliRun unknown = CliRun.of("inspect", dir.toString());
        try (TensorFileFormats.Registration registered = TensorFileFormats.register(new RawFormat())) {
            CliRun inspect = CliRun.of("inspect", dir.toString());
            JsonNode json = CliRun.of("inspect", dir.toString(), "--json").json();
            CliRun verify = CliRun.of("verify", dir.toString());

            assertThat(inspect.exitCode()).as(inspect.err()).isZero();
            assertThat(inspect.out()).startsWith("not ours: 1 Parquet file and 1 raw file, readable as --input (");
            assertThat(json.get("raw_files").asInt()).isEqualTo(1);
            assertThat(json.get("parquet_files").asInt()).isEqualTo(1);
            assertThat(json.get("arrow_files").asInt()).isZero();
            assertThat(verify.err()).startsWith("Cannot verify " + dir + ": not ours: 1 Parquet file and 1 raw file,");
        }
        // unregistered, a .raw file is no dataset file: the directory is not another tool's dataset either
        assertThat(unknown.out()).doesNotContain("not ours");
    }

    /** Our own part files without their manifest are an incomplete dataset of ours: exit 1, as before. */
    @Test
    void ourFilesWithoutTheirManifestStayIncomplete() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("ours"));
        DatasetFixtures.ourArrow(dir.resolve("part-00000.arrow"), 0, 4, dev.tensorbroadcast.planner.Shape.of(3));
        Files.writeString(dir.resolve("_SUCCESS"), "");

        CliRun inspect = CliRun.of("inspect", dir.toString());

        assertThat(inspect.exitCode()).isEqualTo(1);
        assertThat(inspect.out()).contains("complete      no: no _manifest.json\n");
    }
}
