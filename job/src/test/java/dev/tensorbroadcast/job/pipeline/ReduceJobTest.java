package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.ReduceResult;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.TensorReduce;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code reduce} through the Java API on a real local Spark: both regimes, datasets read in slices, determinism. */
class ReduceJobTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private static SourceTensor floats(Shape shape, float[] values) {
        ByteBuffer buffer = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float value : values) {
            buffer.putFloat(value);
        }
        return SourceTensor.fixedWidth(DType.FLOAT32, shape, buffer.array(), null);
    }

    private static int[] int32s(Path npy, long elements) throws Exception {
        byte[] bytes = Files.readAllBytes(npy);
        ByteBuffer data = ByteBuffer.wrap(
                        bytes, bytes.length - Math.toIntExact(4 * elements), Math.toIntExact(4 * elements))
                .order(ByteOrder.LITTLE_ENDIAN);
        int[] values = new int[Math.toIntExact(elements)];
        for (int i = 0; i < values.length; i++) {
            values[i] = data.getInt();
        }
        return values;
    }

    private byte[] reduceBytes(SourceTensor gradient, Shape input, long partitions, String name) throws Exception {
        Path output = dir.resolve(name + ".npy");
        TensorReduce.builder()
                .gradient(gradient)
                .dialect(Dialect.NUMPY)
                .inputShape(input)
                .shape(TargetShape.parse(gradient.shape().toList()))
                .partitions(partitions)
                .output(output.toString())
                .build()
                .run(SPARK.session());
        return Files.readAllBytes(output);
    }

    @Test
    void reduceOfAnExpandedDatasetIsTheSourceTimesItsCopies() throws Exception {
        // the gradient is a dataset that expand wrote, read back by the tasks in slices, in both regimes
        Path source = NpyFiles.int32(dir.resolve("x.npy"), new long[] {6, 1, 3});
        Path expanded = dir.resolve("expanded");
        TensorBroadcast.builder()
                .source(source.toString())
                .dialect(Dialect.NUMPY)
                .shape(6, 5, 3)
                .format(OutputFormat.PARQUET)
                .partitions(4)
                .output(expanded.toString())
                .build()
                .run(SPARK.session());
        Path kept = dir.resolve("kept.npy");
        List<ReduceResult> results = TensorReduce.builder()
                .gradient(expanded.toString())
                .dialect(Dialect.NUMPY)
                .inputShape(Shape.of(6, 1, 3))
                .shape(TargetShape.parse("[6,5,3]"))
                .partitions(4)
                .output(kept.toString())
                .build()
                .run(SPARK.session());
        assertThat(results).singleElement().satisfies(result -> {
            assertThat(result.regime()).isEqualTo(ReducePlan.Regime.ROWS_KEPT);
            assertThat(result.tasks()).isEqualTo(4);
            assertThat(result.shape()).isEqualTo(Shape.of(6, 1, 3));
        });
        int[] sums = int32s(kept, 18);
        for (int i = 0; i < sums.length; i++) {
            assertThat(sums[i]).as("element %d", i).isEqualTo(5 * NpyFiles.value(i));
        }
        Path summed = dir.resolve("summed.npy");
        TensorReduce.builder()
                .gradient(expanded.toString())
                .dialect(Dialect.NUMPY)
                .inputShape(Shape.of(1, 3))
                .shape(TargetShape.parse("[6,5,3]"))
                .partitions(5)
                .output(summed.toString())
                .build()
                .run(SPARK.session());
        // column c of the result sums every x[r, 0, c] five times over: 5 * sum over r of value(3r + c)
        int[] columns = int32s(summed, 3);
        for (int c = 0; c < 3; c++) {
            long expected = 0;
            for (int r = 0; r < 6; r++) {
                expected += 5L * NpyFiles.value(3L * r + c);
            }
            assertThat(columns[c]).isEqualTo(expected);
        }
    }

    @Test
    void smallIntegersGiveTheSameBitsForAnyPartitioning() throws Exception {
        Random random = new Random(7);
        float[] values = new float[300 * 8];
        long[] expected = new long[8];
        for (int i = 0; i < values.length; i++) {
            values[i] = random.nextInt(2001) - 1000;
            expected[i % 8] += (long) values[i];
        }
        SourceTensor gradient = floats(Shape.of(300, 8), values);
        byte[] one = reduceBytes(gradient, Shape.of(1, 8), 1, "one");
        // 100 partials make a tree three levels deep: 100 -> 13 -> 2 -> 1
        for (long partitions : new long[] {7, 17, 100}) {
            assertThat(reduceBytes(gradient, Shape.of(1, 8), partitions, "p" + partitions))
                    .isEqualTo(one);
        }
        ByteBuffer data = ByteBuffer.wrap(one, one.length - 32, 32).order(ByteOrder.LITTLE_ENDIAN);
        for (long sum : expected) {
            assertThat(data.getFloat()).isEqualTo((float) sum);
        }
    }

    @Test
    void anyFloatsGiveTheSameBitsOnEveryRun() throws Exception {
        Random random = new Random(11);
        float[] values = new float[500 * 16];
        for (int i = 0; i < values.length; i++) {
            values[i] = (float) random.nextGaussian() * 1e3f;
        }
        SourceTensor gradient = floats(Shape.of(500, 16), values);
        byte[] first = reduceBytes(gradient, Shape.of(16), 37, "first");
        for (int run = 0; run < 3; run++) {
            assertThat(reduceBytes(gradient, Shape.of(16), 37, "again" + run)).isEqualTo(first);
        }
    }

    @Test
    void writesDatasetsThatSayTheyHoldAReduce() throws Exception {
        Path output = dir.resolve("grads");
        SourceTensor gradient = floats(
                Shape.of(4, 2, 3),
                new float[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24});
        List<ReduceResult> results = TensorReduce.builder()
                .gradient(gradient)
                .dialect(Dialect.PADDLE)
                .inputShape(Shape.of(4, 1, 3))
                .inputShape(Shape.of(2, 1))
                .partitions(2)
                .format(OutputFormat.ARROW)
                .output(output.toString())
                .build()
                .run(SPARK.session());
        assertThat(results)
                .extracting(ReduceResult::regime)
                .containsExactly(ReducePlan.Regime.ROWS_KEPT, ReducePlan.Regime.ROWS_SUMMED);
        Manifest kept = DatasetFiles.manifest(output.resolve("0"));
        assertThat(kept.request()).containsEntry("operation", "reduce").containsEntry("input", "0");
        assertThat(kept.shape()).containsExactly(4L, 1L, 3L);
        assertThat(DatasetFiles.arrowRows(output.resolve("0"), kept))
                .extracting(DatasetFiles.ArrowRow::values)
                .containsExactly(
                        List.of(5f, 7f, 9f), List.of(17f, 19f, 21f), List.of(29f, 31f, 33f), List.of(41f, 43f, 45f));
        Manifest summed = DatasetFiles.manifest(output.resolve("1"));
        // input 1 is (2,1): gradient element [r, j, c] is 6r + 3j + c + 1, summed over r and c
        assertThat(DatasetFiles.arrowRows(output.resolve("1"), summed))
                .extracting(DatasetFiles.ArrowRow::values)
                .containsExactly(List.of(132f), List.of(168f));
        assertThat(Files.exists(output.resolve("1").resolve(Manifest.SUCCESS_FILE_NAME)))
                .isTrue();
    }

    @Test
    void aSumOutsideTheDtypeIsOneRefusalAndWritesNothing() throws Exception {
        byte[] bytes = new byte[12];
        java.util.Arrays.fill(bytes, (byte) 100);
        SourceTensor gradient = SourceTensor.fixedWidth(DType.INT8, Shape.of(4, 3), bytes, null);
        Path output = dir.resolve("never.npy");
        TensorReduce reduce = TensorReduce.builder()
                .gradient(gradient)
                .dialect(Dialect.NUMPY)
                .inputShape(Shape.of(3))
                .shape(TargetShape.parse("[4,3]"))
                .partitions(2)
                .output(output.toString())
                .build();
        assertThatThrownBy(() -> reduce.run(SPARK.session()))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot reduce a int8 gradient: the sum at input element 0 is 400, outside int8's range"
                        + " [-128, 127]; reduce a copy in a wider type");
        try (var files = Files.list(dir)) {
            assertThat(files.map(path -> path.getFileName().toString()))
                    .doesNotContain("never.npy")
                    .noneMatch(name -> name.endsWith(".tmp"));
        }
    }

    /**
     * Summing over an empty axis gives 0 (issue 24), through the Java API: a dataset of no rows that expand wrote
     * (rows-summed) and an in-memory gradient with a 0 in its row (rows-kept) both reduce to zeros of the input.
     */
    @Test
    void aZeroSizeGradientReducesToZerosInBothRegimes() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("x.npy"), new long[] {0, 1});
        Path expanded = dir.resolve("expanded");
        Manifest manifest = TensorBroadcast.builder()
                .source(source.toString())
                .dialect(Dialect.NUMPY)
                .shape(0, 4)
                .format(OutputFormat.PARQUET)
                .output(expanded.toString())
                .build()
                .run(SPARK.session());
        assertThat(manifest.rows()).isZero();
        assertThat(manifest.shape()).containsExactly(0L, 4L);

        Path summed = dir.resolve("summed.npy");
        List<ReduceResult> fromDataset = TensorReduce.builder()
                .gradient(expanded.toString())
                .dialect(Dialect.NUMPY)
                .inputShape(Shape.of(1, 4))
                .shape(TargetShape.parse("[0,4]"))
                .output(summed.toString())
                .build()
                .run(SPARK.session());
        Path kept = dir.resolve("kept.npy");
        List<ReduceResult> inMemory = TensorReduce.builder()
                .gradient(floats(Shape.of(2, 0), new float[0]))
                .dialect(Dialect.PYTORCH)
                .inputShape(Shape.of(2, 1))
                .shape(TargetShape.parse("[-1,0]"))
                .output(kept.toString())
                .build()
                .run(SPARK.session());

        assertThat(fromDataset).singleElement().satisfies(result -> {
            assertThat(result.regime()).isEqualTo(ReducePlan.Regime.ROWS_SUMMED);
            assertThat(result.shape()).isEqualTo(Shape.of(1, 4));
        });
        assertThat(int32s(summed, 4)).containsExactly(0, 0, 0, 0);
        assertThat(inMemory).singleElement().satisfies(result -> {
            assertThat(result.regime()).isEqualTo(ReducePlan.Regime.ROWS_KEPT);
            assertThat(result.shape()).isEqualTo(Shape.of(2, 1));
        });
        byte[] bytes = Files.readAllBytes(kept);
        ByteBuffer values = ByteBuffer.wrap(bytes, bytes.length - 8, 8).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(values.getFloat()).isZero();
        assertThat(values.getFloat()).isZero();
    }
}
