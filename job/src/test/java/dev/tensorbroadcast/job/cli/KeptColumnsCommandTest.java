package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.source.KeptFixtures;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A feature table's other columns carried through {@code expand}, as Spark's {@code withColumn} keeps them: from a
 * pyarrow table (Parquet, Arrow IPC files and streams) and from Spark's own Parquet (its INT96 timestamps included),
 * shipped and read in slices, to Arrow and Parquet; read back by Spark, row for row.
 */
class KeptColumnsCommandTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    private static final List<String> PYARROW_KEPT = KeptFixtures.KEPT;

    @TempDir
    Path dir;

    private CliRun expand(Path input, Path output, String... more) {
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
                "[-1,3,8]",
                "--output",
                output.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    /** Spark's reader of the output's Parquet files (Spark has no Arrow IPC reader). */
    private Dataset<Row> read(Path output) {
        return SPARK.session().read().parquet(output.toString()).orderBy("index");
    }

    @ParameterizedTest(name = "{0} source, ship threshold {1}")
    @CsvSource({"parquet, 64m", "parquet, 1k", "arrow, 64m", "arrow, 1k", "stream, 64m", "stream, 1k", "stream-zstd, 1k"
    })
    void namedColumnsTravelWithTheirRowsIntoParquet(String format, String shipThreshold) throws Exception {
        Path input = KeptFixtures.copy(format, dir.resolve("table"));
        Path output = dir.resolve("out");

        CliRun run = expand(
                input,
                output,
                "--keep",
                String.join(",", PYARROW_KEPT),
                "--format",
                "parquet",
                "--partitions",
                "4",
                "--ship-threshold",
                shipThreshold);

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Row> rows = SPARK.session()
                .read()
                .parquet(output.toString())
                .orderBy("index")
                .collectAsList();
        assertThat(rows).hasSize(KeptFixtures.ROWS);
        Row sample = rows.get(0);
        assertThat(Arrays.asList(sample.schema().fieldNames()))
                .containsExactly(Stream.concat(Stream.of("index", "tensor"), PYARROW_KEPT.stream())
                        .toArray(String[]::new));
        for (Row row : rows) {
            long r = row.getLong(0);
            assertThat(row.getLong(row.fieldIndex("user_id"))).isEqualTo(r);
            assertThat(row.getInt(row.fieldIndex("label"))).isEqualTo((int) (r % 3));
            assertThat(row.getDouble(row.fieldIndex("score"))).isEqualTo(r / 2.0);
            assertThat((String) row.getAs("name")).isEqualTo(r % 7 == 0 ? null : "u" + r);
            assertThat(row.<java.sql.Date>getAs("day").toLocalDate().toEpochDay())
                    .isEqualTo(19000 + r);
            Timestamp seen = row.getAs("seen");
            assertThat(seen.getTime() * 1000 + seen.getNanos() / 1000 % 1000)
                    .isEqualTo(1_700_000_000_000_000L + 1000 * r);
            assertThat(row.getBoolean(row.fieldIndex("flag"))).isEqualTo(r % 2 == 0);
            assertThat(row.getByte(row.fieldIndex("small"))).isEqualTo((byte) (r % 100 - 50));
            assertThat(row.getList(1).get(8)).isEqualTo((float) r);
        }
        CliRun inspect = CliRun.of("inspect", output.toString());
        assertThat(inspect.out())
                .contains("kept columns  user_id int64, label int32, score float64, name string,"
                        + " day date32, seen timestamp[us, UTC], flag bool, small int8");
    }

    /** One stream file given as the input: a dataset of one file, read in slices, its other columns kept. */
    @Test
    void oneArrowStreamIsADatasetOfOneFile() throws Exception {
        Path input = KeptFixtures.copy("stream", dir.resolve("table")).resolve("part-1.arrow");
        Path output = dir.resolve("out");

        CliRun plan = CliRun.of(
                "plan",
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
                "--ship-threshold",
                "1k",
                "--keep",
                "user_id,name");
        CliRun run = expand(
                input,
                output,
                "--keep",
                "user_id,name",
                "--format",
                "parquet",
                "--partitions",
                "3",
                "--ship-threshold",
                "1k");

        assertThat(plan.exitCode()).as(plan.err()).isZero();
        assertThat(plan.out())
                .contains("\ninputs        [300,1,8]\n")
                .contains("source        dataset of 1 file, 300" + " rows");
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Row> rows = read(output).collectAsList();
        assertThat(rows).hasSize(300);
        for (Row row : rows) {
            long r = row.getLong(0);
            // the file holds rows 300..599 of the table
            assertThat(row.getLong(row.fieldIndex("user_id"))).isEqualTo(300 + r);
            assertThat((String) row.getAs("name")).isEqualTo((300 + r) % 7 == 0 ? null : "u" + (300 + r));
            assertThat(row.getList(1).get(17)).isEqualTo((float) (300 + r + 1 / 8.0));
        }
    }

    @Test
    void sparksOwnParquetKeepsItsTimestampsAndStrings() throws Exception {
        SparkSession spark = SPARK.session();
        List<Row> source = new ArrayList<>();
        for (int r = 0; r < 50; r++) {
            float[] features = new float[8];
            Arrays.fill(features, r);
            source.add(RowFactory.create(
                    (long) r * 10, "item-" + r, new Timestamp(1_600_000_000_000L + r * 1000L), features));
        }
        StructType schema = new StructType()
                .add("id", DataTypes.LongType)
                .add("item", DataTypes.StringType)
                .add("at", DataTypes.TimestampType)
                .add("features", DataTypes.createArrayType(DataTypes.FloatType, false));
        Path input = dir.resolve("spark-table");
        spark.createDataFrame(source, schema).coalesce(2).write().parquet(input.toString());
        Path output = dir.resolve("out");

        CliRun run = expand(input, output, "--ship-threshold", "0", "--format", "parquet");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Row> rows = read(output).collectAsList();
        assertThat(rows).hasSize(50);
        for (Row row : rows) {
            long r = row.getLong(0);
            assertThat(row.getLong(row.fieldIndex("id"))).isEqualTo(r * 10);
            assertThat((String) row.getAs("item")).isEqualTo("item-" + r);
            assertThat(row.<Timestamp>getAs("at")).isEqualTo(new Timestamp(1_600_000_000_000L + r * 1000L));
        }
    }

    @Test
    void aListColumnIsRefusedByDefaultWithTheKeepThatWorks() throws Exception {
        Path input = KeptFixtures.copy("parquet", dir.resolve("table"));
        Path output = dir.resolve("out");

        CliRun run = expand(input, output);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().strip())
                .startsWith("Cannot keep column 'tags' of input '" + input + "': it is ")
                .endsWith("a kept column holds one number, boolean, string, binary, date or timestamp per row;"
                        + " choose the columns to keep with --keep user_id,label,score,name,day,seen,flag,small, or"
                        + " keep none with --keep none")
                .doesNotContain("\n");
        assertThat(output).doesNotExist();
    }

    @Test
    void keepNoneWritesOnlyIndexAndTensor() throws Exception {
        Path input = KeptFixtures.copy("arrow", dir.resolve("table"));
        Path output = dir.resolve("out");

        assertThat(expand(input, output, "--keep", "none", "--format", "parquet")
                        .exitCode())
                .isZero();

        assertThat(read(output).schema().fieldNames()).containsExactly("index", "tensor");
    }

    @Test
    void mistakesInKeepAreNamedInOneLine() throws Exception {
        Path input = KeptFixtures.copy("parquet", dir.resolve("table"));
        Path output = dir.resolve("out");
        Path npy = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});

        assertThat(expand(input, output, "--keep", "user_id,lable").err().strip())
                .isEqualTo("Cannot keep column"
                        + " 'lable' of input '" + input
                        + "': it has no such column; its other columns are user_id, label,"
                        + " score, name, day, seen, flag, small, tags");
        assertThat(expand(input, output, "--keep", "features").err().strip())
                .isEqualTo("Cannot keep column"
                        + " 'features' of input '" + input
                        + "': it is the tensor column, which the output holds expanded as"
                        + " 'tensor'; leave it out of --keep");
        assertThat(expand(input, output, "--keep", "label,,name").err().strip())
                .isEqualTo("Cannot keep columns"
                        + " 'label,,name': a name is empty; give column names separated by commas (such as --keep"
                        + " user_id,label), all, or none");
        CliRun notDataset = CliRun.of(
                "expand",
                "--input",
                npy.toString(),
                "--dialect",
                "numpy",
                "--shape",
                "4,8",
                "--output",
                output.toString(),
                "--keep",
                "id");
        assertThat(notDataset.exitCode()).isEqualTo(2);
        assertThat(notDataset.err().strip())
                .isEqualTo("Cannot keep columns id of input '" + npy + "': it is a single"
                        + " tensor, with no columns to keep; columns are kept from a dataset (a directory of Arrow IPC or"
                        + " Parquet files, or one Parquet file)");
        // numpy prepends a dim: output row i holds all 600 source rows, which have no one row to follow
        CliRun prepended = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--column",
                "features",
                "--row-shape",
                "[8]",
                "--dialect",
                "numpy",
                "--shape",
                "[2,600,8]",
                "--output",
                output.toString(),
                "--keep",
                "label");
        assertThat(prepended.err().strip())
                .startsWith("Cannot keep columns label of input '" + input + "': its first"
                        + " dim is not the output's first dim");
        assertThat(output).doesNotExist();
        CliRun byDefault = CliRun.of(
                "expand",
                "--input",
                input.toString(),
                "--column",
                "features",
                "--row-shape",
                "[8]",
                "--dialect",
                "numpy",
                "--shape",
                "[2,600,8]",
                "--output",
                output.toString(),
                "--format",
                "parquet");
        assertThat(byDefault.exitCode()).as(byDefault.err()).isZero();
        assertThat(read(output).schema().fieldNames()).containsExactly("index", "tensor");
        assertThat(Files.exists(output.resolve("_SUCCESS"))).isTrue();
    }

    @Test
    void broadcastTensorsKeepsTheColumnsOfItsDatasetInput() throws Exception {
        Path input = KeptFixtures.copy("parquet", dir.resolve("table"));
        Path npy = NpyFiles.int32(dir.resolve("scale.npy"), new long[] {1, 3, 1});
        Path output = dir.resolve("out");

        CliRun run = CliRun.of(
                "broadcast-tensors",
                "--input",
                input.toString(),
                "--input",
                npy.toString(),
                "--column",
                "features",
                "--row-shape",
                "[1,8]",
                "--dialect",
                "numpy",
                "--keep",
                "user_id,label",
                "--format",
                "parquet",
                "--output",
                output.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        Dataset<Row> first = read(output.resolve("0"));
        assertThat(first.schema().fieldNames()).containsExactly("index", "tensor", "user_id", "label");
        assertThat(first.collectAsList()).allSatisfy(row -> {
            assertThat(row.getLong(2)).isEqualTo(row.getLong(0));
            assertThat(row.getInt(3)).isEqualTo((int) (row.getLong(0) % 3));
        });
        assertThat(read(output.resolve("1")).schema().fieldNames()).containsExactly("index", "tensor");
    }

    /** A table of no rows keeps its columns: the output is an empty dataset with them, in either format (issue 24). */
    @ParameterizedTest(name = "into {0}, ship threshold {1}")
    @CsvSource({"parquet, 64m", "parquet, 0", "arrow, 64m", "arrow, 0"})
    void aTableOfNoRowsGivesAnEmptyDatasetWithItsColumns(String format, String shipThreshold) throws Exception {
        StructType schema = new StructType()
                .add("id", DataTypes.LongType)
                .add("item", DataTypes.StringType)
                .add("features", DataTypes.createArrayType(DataTypes.FloatType, false));
        Path input = dir.resolve("empty-table");
        SPARK.session()
                .createDataFrame(List.<Row>of(), schema)
                .coalesce(1)
                .write()
                .parquet(input.toString());
        Path output = dir.resolve("out");

        CliRun run = expand(input, output, "--format", format, "--ship-threshold", shipThreshold);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("wrote file:" + output + ": 0 rows of [3,8] float32");
        CliRun verify = CliRun.of("verify", output.toString());
        assertThat(verify.exitCode()).as(verify.out()).isZero();
        assertThat(verify.out()).startsWith("OK: ");
        CliRun inspect = CliRun.of("inspect", output.toString());
        assertThat(inspect.out())
                .contains("complete      yes\n")
                .contains("shape         (0,3,8)\n")
                .contains("kept columns  id int64, item string");
        if (format.equals("parquet")) {
            Dataset<Row> read = SPARK.session().read().parquet(output.toString());
            assertThat(read.schema().fieldNames()).containsExactly("index", "tensor", "id", "item");
            assertThat(read.count()).isZero();
        }
    }
}
