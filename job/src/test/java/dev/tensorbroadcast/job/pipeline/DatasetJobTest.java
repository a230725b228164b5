package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.base.JobFailedException;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.TargetShape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job end to end on a real local Spark, through the Java API; files read back by independent readers. */
class DatasetJobTest {
    private static SparkSession spark;

    @TempDir
    Path dir;

    @BeforeAll
    static void startSpark() {
        spark = LocalSpark.start();
    }

    @AfterAll
    static void stopSpark() {
        spark.stop();
    }

    /** One request per dialect: source shape, the request's arguments, and the output shape the dialect gives. */
    private record Case(
            Dialect dialect, long[] source, UnaryOperator<TensorBroadcast.Builder> arguments, List<Long> output) {}

    private static List<Case> everyDialect() {
        return List.of(
                new Case(Dialect.NUMPY, new long[] {3, 1}, b -> b.shape(4, 3, 5), List.of(4L, 3L, 5L)),
                new Case(Dialect.PYTORCH, new long[] {3, 1}, b -> b.shape(2, -1, 4), List.of(2L, 3L, 4L)),
                new Case(Dialect.PADDLE, new long[] {1, 3}, b -> b.shape(5, 3), List.of(5L, 3L)),
                new Case(Dialect.MINDSPORE, new long[] {2, 1}, b -> b.shape(-1, 2), List.of(2L, 2L)),
                new Case(Dialect.ONNX, new long[] {3, 1}, b -> b.shape(2, 1, 6), List.of(2L, 3L, 6L)),
                new Case(
                        Dialect.OPENVINO,
                        new long[] {3},
                        b -> b.shape(2, 3, 4).mode(BroadcastMode.EXPLICIT).axesMapping(List.of(1L)),
                        List.of(2L, 3L, 4L)),
                new Case(
                        Dialect.NGRAPH,
                        new long[] {3},
                        b -> b.shape(2, 3).broadcastAxes(List.of(0L)),
                        List.of(2L, 3L)));
    }

    private TensorBroadcast.Builder request(Case c, Path source, OutputFormat format, Path output) {
        return c.arguments()
                .apply(TensorBroadcast.builder()
                        .source(source.toString())
                        .dialect(c.dialect())
                        .format(format)
                        .partitions(2)
                        .output(output.toString()));
    }

    private static CopyProgram program(TensorBroadcast broadcast) {
        return broadcast
                .prepare(spark.sparkContext().hadoopConfiguration())
                .plan()
                .copyProgram(0);
    }

    @Test
    void everyDialectInBothFormatsMatchesThePlannersReference() throws Exception {
        for (Case c : everyDialect()) {
            Path source = NpyFiles.int32(dir.resolve(c.dialect() + ".npy"), c.source());
            // the dataset formats: an array's objects are not part files (ZarrCommandTest writes those)
            for (OutputFormat format : OutputFormat.values().stream()
                    .filter(f -> f.array().isEmpty())
                    .toList()) {
                Path output = dir.resolve(c.dialect() + "-" + format);
                TensorBroadcast broadcast = request(c, source, format, output).build();
                CopyProgram program = program(broadcast);
                Manifest manifest = broadcast.run(spark);

                String what = c.dialect() + " " + format;
                assertThat(manifest.shape()).as(what).isEqualTo(c.output());
                assertThat(manifest.format()).isEqualTo(format.formatName());
                assertThat(DatasetFiles.manifest(output)).isEqualTo(manifest);
                assertThat(DatasetFiles.names(output))
                        .as(what)
                        .containsExactly(
                                "_SUCCESS",
                                "_manifest.json",
                                "part-00000" + format.extension(),
                                "part-00001" + format.extension());
                DatasetFiles.checkFiles(output, manifest);
                List<List<Object>> rows =
                        format == OutputFormat.ARROW ? arrowValues(output, manifest) : parquetValues(output);
                assertThat(rows).as(what).hasSize((int) manifest.rows());
                long rowElements = manifest.rowShape().stream().reduce(1L, (a, b) -> a * b);
                for (int r = 0; r < rows.size(); r++) {
                    for (int e = 0; e < rowElements; e++) {
                        assertThat(rows.get(r).get(e))
                                .as(what + " row " + r + " element " + e)
                                .isEqualTo(NpyFiles.value(program.sourceIndex(r * rowElements + e)));
                    }
                }
            }
        }
    }

    private static List<List<Object>> arrowValues(Path output, Manifest manifest) throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        long expectedIndex = 0;
        for (DatasetFiles.ArrowRow row : DatasetFiles.arrowRows(output, manifest)) {
            assertThat(row.index()).isEqualTo(expectedIndex++);
            rows.add(row.values());
        }
        return rows;
    }

    private static List<List<Object>> parquetValues(Path output) {
        List<List<Object>> rows = new ArrayList<>();
        long expectedIndex = 0;
        for (Row row : spark.read().parquet(output.toString()).orderBy("index").collectAsList()) {
            assertThat(row.getLong(0)).isEqualTo(expectedIndex++);
            rows.add(new ArrayList<>(row.getList(1)));
        }
        return rows;
    }

    @Test
    void aTaskThatFailsOnceGivesTheSameBytesAsACleanRun() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("s.npy"), new long[] {1, 64});
        Path clean = dir.resolve("clean");
        Path retried = dir.resolve("retried");
        Manifest cleanManifest = write(source, clean, OutputFormat.PARQUET);
        spark.sparkContext().setLocalProperty(InjectedFailure.PARTITION, "1");
        spark.sparkContext().setLocalProperty(InjectedFailure.ATTEMPTS, "1");
        Manifest retriedManifest;
        try {
            retriedManifest = write(source, retried, OutputFormat.PARQUET);
        } finally {
            spark.sparkContext().setLocalProperty(InjectedFailure.PARTITION, null);
            spark.sparkContext().setLocalProperty(InjectedFailure.ATTEMPTS, null);
        }
        assertThat(DatasetFiles.names(retried))
                .containsExactly(
                        "_SUCCESS", "_manifest.json", "part-00000.parquet", "part-00001.parquet", "part-00002.parquet");
        assertThat(retriedManifest.files()).isEqualTo(cleanManifest.files());
        for (String name : List.of("part-00000.parquet", "part-00001.parquet", "part-00002.parquet")) {
            assertThat(Files.readAllBytes(retried.resolve(name)))
                    .as(name)
                    .isEqualTo(Files.readAllBytes(clean.resolve(name)));
        }
    }

    @Test
    void aJobThatFailsLeavesNoSuccessAndNoManifest() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("s.npy"), new long[] {1, 64});
        Path output = dir.resolve("failed");
        spark.sparkContext().setLocalProperty(InjectedFailure.PARTITION, "1");
        spark.sparkContext().setLocalProperty(InjectedFailure.ATTEMPTS, "all");
        try {
            assertThatThrownBy(() -> write(source, output, OutputFormat.ARROW))
                    .isInstanceOf(JobFailedException.class)
                    .hasMessageStartingWith("Cannot write 'file:" + output + "': the Spark job failed: ")
                    .hasMessageContaining("injected failure in partition 1, attempt 1");
            // the job made the directory and removed it: nothing where there was nothing
            assertThat(output).doesNotExist();

            java.nio.file.Files.createDirectory(output);
            assertThatThrownBy(() -> TensorBroadcast.builder()
                            .source(source.toString())
                            .dialect(Dialect.NUMPY)
                            .shape(12, 64)
                            .partitions(3)
                            .output(output.toString())
                            .overwrite(true)
                            .build()
                            .run(spark))
                    .isInstanceOf(JobFailedException.class);
            // a directory that was there before stays, with nothing of the failed job in it
            assertThat(DatasetFiles.names(output)).isEmpty();
        } finally {
            spark.sparkContext().setLocalProperty(InjectedFailure.PARTITION, null);
            spark.sparkContext().setLocalProperty(InjectedFailure.ATTEMPTS, null);
        }
        // what a failed job leaves may be replaced with --overwrite
        Manifest manifest = TensorBroadcast.builder()
                .source(source.toString())
                .dialect(Dialect.NUMPY)
                .shape(12, 64)
                .output(output.toString())
                .overwrite(true)
                .build()
                .run(spark);
        assertThat(manifest.rows()).isEqualTo(12);
    }

    private static Manifest write(Path source, Path output, OutputFormat format) {
        return TensorBroadcast.builder()
                .source(source.toString())
                .dialect(Dialect.NUMPY)
                .shape(12, 64)
                .partitions(3)
                .format(format)
                .output(output.toString())
                .build()
                .run(spark);
    }

    @Test
    void anEmptyOutputIsOneFileWithTheSchemaAndNoRows() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("s.npy"), new long[] {1, 3});
        Path output = dir.resolve("empty");
        Manifest manifest = TensorBroadcast.builder()
                .source(source.toString())
                .dialect(Dialect.NUMPY)
                .shape(TargetShape.of(0, 3))
                .output(output.toString())
                .build()
                .run(spark);
        assertThat(manifest.rows()).isZero();
        assertThat(manifest.files()).hasSize(1);
        assertThat(DatasetFiles.arrowRows(output, manifest)).isEmpty();
        assertThat(DatasetFiles.names(output)).contains("_SUCCESS", "part-00000.arrow");
    }

    @Test
    void broadcastTensorsWritesOneDatasetPerInput() throws Exception {
        Path a = NpyFiles.int32(dir.resolve("a.npy"), new long[] {4, 1});
        Path b = NpyFiles.int32(dir.resolve("b.npy"), new long[] {1, 5});
        Path output = dir.resolve("pair");
        List<Manifest> manifests = TensorBroadcast.builder()
                .source(a.toString())
                .source(b.toString())
                .dialect(Dialect.NUMPY)
                .output(output.toString())
                .build()
                .runAll(spark);
        assertThat(manifests).extracting(Manifest::shape).containsExactly(List.of(4L, 5L), List.of(4L, 5L));
        assertThat(manifests).extracting(m -> m.request().get("input")).containsExactly("0", "1");
        List<DatasetFiles.ArrowRow> second = DatasetFiles.arrowRows(output.resolve("1"), manifests.get(1));
        assertThat(second).hasSize(4).allSatisfy(row -> assertThat(row.values()).containsExactly(3, 10, 17, 24, 31));
        List<DatasetFiles.ArrowRow> first = DatasetFiles.arrowRows(output.resolve("0"), manifests.get(0));
        assertThat(first.get(2).values()).containsExactly(17, 17, 17, 17, 17);
    }

    @Test
    void toDatasetGivesTheRowsWithoutFiles() {
        byte[] values = {1, 2, 3};
        var tensor = dev.tensorbroadcast.arrowio.SourceTensor.fixedWidth(
                dev.tensorbroadcast.planner.DType.INT8, dev.tensorbroadcast.planner.Shape.of(3, 1), values, null);
        org.apache.spark.sql.Dataset<Row> dataset = TensorBroadcast.builder()
                .source(tensor)
                .dialect(Dialect.NUMPY)
                .shape(3, 2)
                .partitions(2)
                .build()
                .toDataset(spark);
        // the columns the files have, by the same names
        assertThat(dataset.schema().simpleString()).isEqualTo("struct<index:bigint,tensor:array<tinyint>>");
        assertThat(dataset.schema().apply("tensor").metadata().getLongArray(RowDatasets.SHAPE_METADATA))
                .containsExactly(2);
        List<Row> rows = dataset.orderBy("index").collectAsList();
        assertThat(rows).extracting(row -> row.getLong(0)).containsExactly(0L, 1L, 2L);
        assertThat(rows)
                .extracting(row -> row.getList(1))
                .containsExactly(List.of((byte) 1, (byte) 1), List.of((byte) 2, (byte) 2), List.of((byte) 3, (byte) 3));
    }

    @Test
    void toDatasetMatchesTheReferenceWithRepeatsAtEveryLevelAndNulls() {
        // [3,1,2] -> [4,3,5,2]: rows of [3,5,2]; repeats of whole blocks (the 5) and of the leading dim (the 4)
        dev.tensorbroadcast.planner.Shape input = dev.tensorbroadcast.planner.Shape.of(3, 1, 2);
        var tensor = dev.tensorbroadcast.arrowio.RandomTensors.source(
                new java.util.Random(7), dev.tensorbroadcast.planner.DType.FLOAT32, input, true);
        var program = dev.tensorbroadcast.planner.BroadcastRequest.builder(Dialect.NUMPY)
                .input(input, tensor.dtype())
                .target(4, 3, 5, 2)
                .build()
                .plan()
                .copyProgram(0);
        java.nio.ByteBuffer floats = java.nio.ByteBuffer.wrap(tensor.values()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        List<Row> rows = TensorBroadcast.builder()
                .source(tensor)
                .dialect(Dialect.NUMPY)
                .shape(4, 3, 5, 2)
                .partitions(3)
                .build()
                .toDataset(spark)
                .orderBy("index")
                .collectAsList();
        assertThat(rows).hasSize(4);
        for (Row row : rows) {
            List<Float> values = row.getList(1);
            assertThat(values).hasSize(30);
            for (int e = 0; e < 30; e++) {
                long from = program.sourceIndex(row.getLong(0) * 30 + e);
                assertThat(values.get(e))
                        .as("row %d element %d", row.getLong(0), e)
                        .isEqualTo(tensor.isValid(from) ? floats.getFloat((int) from * 4) : null);
            }
        }
    }
}
