package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Date;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expand --partition-by}: a feature table Spark wrote with {@code partitionBy("day", "tag")} expands into the
 * same {@code key=value/} layout, each file under one directory, read back by Spark with the keys as typed columns,
 * and by {@code inspect}, {@code verify} and {@code export} through the manifest's relative paths.
 */
class PartitionByCommandTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    /** Rows r: day 2024-03-(1 + r / 20), tag "a/b c" for r % 20 < 10 (Spark escapes the slash), else null. */
    private static final int ROWS = 60;

    @TempDir
    Path dir;

    Path input;

    @BeforeEach
    void writeTable() {
        SparkSession spark = SPARK.session();
        List<Row> source = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            float[] features = new float[8];
            for (int e = 0; e < 8; e++) {
                features[e] = r + e / 8f;
            }
            source.add(RowFactory.create(
                    (long) r, Date.valueOf(LocalDate.of(2024, 3, 1 + r / 20)), r % 20 < 10 ? "a/b c" : null, features));
        }
        StructType schema = new StructType()
                .add("user_id", DataTypes.LongType)
                .add("day", DataTypes.DateType)
                .add("tag", DataTypes.StringType)
                .add("features", DataTypes.createArrayType(DataTypes.FloatType, false));
        input = dir.resolve("table");
        spark.createDataFrame(source, schema)
                .repartition(1)
                .write()
                .partitionBy("day", "tag")
                .parquet(input.toString());
    }

    private CliRun expand(String output, String... more) {
        List<String> args = new ArrayList<>(List.of(
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
                "--partitions",
                "4",
                "--output",
                output));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    @Test
    void writesSparksLayoutReadBackWithTheKeysAsColumns() throws Exception {
        Path output = dir.resolve("out");

        // read in slices by the tasks (the second run below ships the small source whole)
        CliRun run = expand(output.toString(), "--partition-by", "day,tag", "--ship-threshold", "0");

        assertThat(run.exitCode()).as(run.err()).isZero();
        Manifest manifest;
        try (InputStream in = Files.newInputStream(output.resolve(Manifest.FILE_NAME))) {
            manifest = ManifestJson.read(in, "manifest");
        }
        assertThat(manifest.request()).containsEntry("partition_by", "day,tag");
        // the keys live in the paths, not in the files
        assertThat(manifest.keptColumns())
                .extracting(Manifest.KeptColumnEntry::name)
                .containsExactly("user_id");
        List<String> directories = manifest.files().stream()
                .map(file -> file.path().substring(0, file.path().lastIndexOf('/')))
                .distinct()
                .toList();
        assertThat(directories)
                .containsExactly(
                        "day=2024-03-01/tag=__HIVE_DEFAULT_PARTITION__",
                        "day=2024-03-01/tag=a%2Fb c",
                        "day=2024-03-02/tag=__HIVE_DEFAULT_PARTITION__",
                        "day=2024-03-02/tag=a%2Fb c",
                        "day=2024-03-03/tag=__HIVE_DEFAULT_PARTITION__",
                        "day=2024-03-03/tag=a%2Fb c");
        // the same directories as Spark wrote for the input: the day's features beside the day
        for (String directory : directories) {
            assertThat(input.resolve(directory)).isDirectory();
        }
        for (DatasetFile file : manifest.files()) {
            assertThat(output.resolve(file.path())).hasSize(file.bytes());
        }
        // 4 partitions of 15 rows (0, 15, 30, 45), cut where the values change (every 10 rows): 8 files
        assertThat(manifest.files())
                .extracting(DatasetFile::firstRow)
                .containsExactly(0L, 10L, 15L, 20L, 30L, 40L, 45L, 50L);

        List<Row> rows = SPARK.session()
                .read()
                .parquet(output.toString())
                .orderBy("user_id")
                .collectAsList();
        assertThat(rows).hasSize(ROWS);
        for (Row row : rows) {
            long u = row.getLong(row.fieldIndex("user_id"));
            assertThat(row.<Date>getAs("day").toLocalDate()).isEqualTo(LocalDate.of(2024, 3, 1 + (int) u / 20));
            assertThat(row.<String>getAs("tag")).isEqualTo(u % 20 < 10 ? "a/b c" : null);
            assertThat(row.getList(row.fieldIndex("tensor")).get(15)).isEqualTo(u + 7 / 8f);
        }

        CliRun inspect = CliRun.of("inspect", output.toString());
        assertThat(inspect.exitCode()).as(inspect.out() + inspect.err()).isZero();
        assertThat(inspect.out()).doesNotContain("stray");
        CliRun verify = CliRun.of("verify", output.toString());
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        Path stray = output.resolve(directories.get(1)).resolve("part-00099.parquet");
        Files.write(stray, new byte[] {1});
        CliRun extra = CliRun.of("verify", output.toString());
        assertThat(extra.exitCode()).isEqualTo(1);
        assertThat(extra.out())
                .contains(directories.get(1) + "/part-00099.parquet: extra file, not listed in the" + " manifest");
        Files.delete(stray);
        Path npy = dir.resolve("x.npy");
        CliRun export = CliRun.of("export", output.toString(), "--npy", npy.toString());
        assertThat(export.exitCode()).as(export.err()).isZero();
        byte[] bytes = Files.readAllBytes(npy);
        ByteBuffer values = ByteBuffer.wrap(bytes, bytes.length - ROWS * 16 * 4, ROWS * 16 * 4)
                .slice()
                .order(ByteOrder.LITTLE_ENDIAN);
        // rows in the input's order (by path): the default partition sorts before "a%2Fb c" on each day
        assertThat(values.getFloat(0)).isEqualTo(10f);
        assertThat(values.getFloat(10 * 16 * 4)).isEqualTo(0f);

        CliRun again = expand(output.toString(), "--partition-by", "day", "--overwrite");
        assertThat(again.exitCode()).as(again.err()).isZero();
        try (Stream<Path> top = Files.list(output)) {
            assertThat(top.map(path -> path.getFileName().toString()).filter(name -> name.contains("=")))
                    .containsExactlyInAnyOrder("day=2024-03-01", "day=2024-03-02", "day=2024-03-03");
        }
        assertThat(output.resolve("day=2024-03-01")).isDirectoryNotContaining("glob:**/tag=*");
        List<Row> shipped = SPARK.session()
                .read()
                .parquet(output.toString())
                .orderBy("user_id")
                .collectAsList();
        assertThat(shipped).hasSize(ROWS);
        for (Row row : shipped) {
            long u = row.getLong(row.fieldIndex("user_id"));
            assertThat(row.<Date>getAs("day").toLocalDate()).isEqualTo(LocalDate.of(2024, 3, 1 + (int) u / 20));
            assertThat(row.getList(row.fieldIndex("tensor")).get(15)).isEqualTo(u + 7 / 8f);
        }
    }

    @Test
    void aKeyThatIsNoColumnIsRefusedNamingTheColumns() {
        Path output = dir.resolve("out");

        CliRun run = expand(output.toString(), "--partition-by", "hour");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot partition the output by 'hour': input '" + input + "' has no such"
                        + " column; its columns are user_id, day, tag (--partition-by hour)\n");
        assertThat(output).doesNotExist();
    }

    @Test
    void aColumnOfTheFilesIsRefusedNamingThePartitionKeys() {
        CliRun run = expand(dir.resolve("out").toString(), "--partition-by", "user_id");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot partition the output by 'user_id': it is a column of the files of"
                        + " input '" + input
                        + "', not a partition key taken from its key=value directories alone (those: day, tag);"
                        + " --partition-by takes those\n");
    }

    @Test
    void anInnerKeyAloneIsRefusedNamingTheRowThatBreaksItsRun() {
        CliRun run = expand(dir.resolve("out").toString(), "--partition-by", "tag");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .startsWith("Cannot partition the output by tag: the values do not come in one run"
                        + " each in the input's order (by path, then row): row 20 (")
                .contains("day=2024-03-02/tag=__HIVE_DEFAULT_PARTITION__")
                .endsWith(") has tag=null again after other values; partition by the outer keys first (the"
                        + " input's are day, tag)\n");
    }

    @Test
    void aKeyTheOutputDoesNotKeepIsRefused() {
        CliRun run = expand(dir.resolve("out").toString(), "--partition-by", "day", "--keep", "user_id");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot partition the output by 'day': the output does not keep it (kept:"
                        + " user_id); keep it with --keep or leave it out of --partition-by day\n");
    }

    @Test
    void aSingleTensorIsRefused() throws Exception {
        Path npy = dir.resolve("row.npy");
        Files.copy(Path.of("..", "examples", "row4096.npy"), npy);

        CliRun run = CliRun.of(
                "expand",
                "--input",
                npy.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "4,4096",
                "--partition-by",
                "day",
                "--output",
                dir.resolve("out").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot partition the output by day: input '" + npy + "' is a single"
                        + " tensor, with no columns; --partition-by takes the partition keys of a dataset input (its"
                        + " key=value directories)\n");
    }
}
