package dev.tensorbroadcast.job.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.format.npy.NpyLayout;
import dev.tensorbroadcast.arrowio.reduce.ReduceKernel;
import dev.tensorbroadcast.job.sink.NpyWriter;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code .npy} gradient read in the small chunks that stay in cache sums to the bits the 16 MiB chunks gave, and to
 * a float64 reference added in the same order: the chunk only decides how many rows one read brings.
 */
class GradientChunksTest {
    /** 2048 rows of 16 KiB: 32 MiB, two old chunks and 32 new ones. */
    private static final int ROWS = 2048;

    private static final int COLUMNS = 4096;

    @TempDir
    Path dir;

    private static ReducePlan plan(String input, long... target) {
        return ReducePlan.of(
                BroadcastRequest.builder(Dialect.NUMPY)
                        .input(Shape.parse(input))
                        .target(target)
                        .build()
                        .plan(),
                0);
    }

    private Path gradient(float[] values) throws Exception {
        ByteBuffer data = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float value : values) {
            data.putFloat(value);
        }
        byte[] header = NpyWriter.header("<f4", Shape.of(ROWS, COLUMNS));
        byte[] bytes = Arrays.copyOf(header, header.length + data.capacity());
        System.arraycopy(data.array(), 0, bytes, header.length, data.capacity());
        Path file = dir.resolve("gradient.npy");
        Files.write(file, bytes);
        return file;
    }

    /**
     * Large values that the second half of the rows cancels, plus small noise: the sums keep only the noise, and a
     * float64 sum added in another order keeps other bits of it.
     */
    private static float[] values() {
        Random random = new Random(5);
        float[] values = new float[ROWS * COLUMNS];
        int half = ROWS * COLUMNS / 2;
        for (int i = 0; i < half; i++) {
            values[i] = (float) (random.nextGaussian() * 1e14);
            values[half + i] = -values[i] + (float) random.nextGaussian();
        }
        return values;
    }

    private static byte[] reduce(GradientRows rows, ReducePlan plan, long chunkBytes) {
        ReduceKernel partial = ReduceKernel.create(DType.FLOAT32, plan.input().elements());
        rows.reduce(plan, 0, ROWS, partial, 0, new Configuration(), chunkBytes);
        return partial.result(plan.input()).values();
    }

    private GradientRows open(Path file) throws Exception {
        long dataStart = Files.size(file) - 4L * ROWS * COLUMNS;
        NpyLayout layout = new NpyLayout(DType.FLOAT32, Shape.of(ROWS, COLUMNS), dataStart, 0);
        return GradientRows.open(new Gradient.NpyFile(file.toString(), layout), null);
    }

    @Test
    void rowsSummedInSmallChunksGiveTheOldBitsAndTheFloat64Reference() throws Exception {
        float[] values = values();
        GradientRows rows = open(gradient(values));
        ReducePlan plan = plan("[1,4096]", ROWS, COLUMNS);
        assertThat(rows.chunkBytes(plan)).isEqualTo(GradientRows.NPY_CHUNK_BYTES);
        byte[] small = reduce(rows, plan, rows.chunkBytes(plan));
        assertThat(small).isEqualTo(reduce(rows, plan, GradientRows.CHUNK_BYTES));
        double[] reference = new double[COLUMNS];
        for (int row = 0; row < ROWS; row++) {
            for (int column = 0; column < COLUMNS; column++) {
                reference[column] += values[row * COLUMNS + column];
            }
        }
        ByteBuffer sums = ByteBuffer.wrap(small).order(ByteOrder.LITTLE_ENDIAN);
        for (int column = 0; column < COLUMNS; column++) {
            assertThat(sums.getFloat()).isEqualTo((float) reference[column]);
        }
    }

    @Test
    void rowsKeptInSmallChunksGiveTheOldBits() throws Exception {
        GradientRows rows = open(gradient(values()));
        // each row summed into one element: a run inside one row, whichever chunk holds it
        ReducePlan plan = plan("[2048,1]", ROWS, COLUMNS);
        assertThat(rows.chunkBytes(plan)).isEqualTo(GradientRows.NPY_CHUNK_BYTES);
        assertThat(reduce(rows, plan, rows.chunkBytes(plan))).isEqualTo(reduce(rows, plan, GradientRows.CHUNK_BYTES));
    }

    /**
     * Rows kept are summed a block of result rows at a time, each block with its own small float64 partial: the
     * bytes are those of one partial over the task's rows, a task spanning several blocks.
     */
    @Test
    void rowsKeptSummedABlockAtATimeGiveTheBitsOfOnePartial() throws Exception {
        Path file = gradient(values());
        long dataStart = Files.size(file) - 4L * ROWS * COLUMNS;
        NpyLayout layout = new NpyLayout(DType.FLOAT32, Shape.of(ROWS, 64, 64), dataStart, 0);
        GradientRows rows = GradientRows.open(new Gradient.NpyFile(file.toString(), layout), null);
        ReducePlan plan = plan("[2048,1,64]", ROWS, 64, 64);
        assertThat(plan.regime()).isEqualTo(ReducePlan.Regime.ROWS_KEPT);
        // 2048 rows of 64 float64 sums are 1 MiB: two blocks
        assertThat(TaskSource.FromReduction.KEPT_BLOCK_BYTES).isLessThan(16L * ROWS * 64);
        dev.tensorbroadcast.planner.Partition whole = dev.tensorbroadcast.planner.PartitionPlan.builder(
                        plan.input(), plan.dtype())
                .partitions(1)
                .build()
                .partition(0);
        TaskSource.ReducedRows blocks = new TaskSource.FromReduction(rows, plan).rows(whole, new Configuration());
        ReduceKernel partial = ReduceKernel.create(DType.FLOAT32, plan.input().elements());
        rows.reduce(plan, 0, ROWS, partial, 0, new Configuration());
        assertThat(blocks.slice().shape()).isEqualTo(plan.input());
        assertThat(blocks.slice().values())
                .isEqualTo(partial.result(plan.input()).values());
        assertThat(blocks.bytesRead()).isEqualTo(4L * ROWS * COLUMNS);
    }

    /**
     * Partitions that start and end inside result rows, each a task summing several blocks through one reader and one
     * partial: every partition's rows are the bytes of one partial over all rows, and the blocks are whole read chunks.
     */
    @Test
    void rowsKeptPartitionsInsideRowsReadThroughOneReaderGiveTheBitsOfOnePartial() throws Exception {
        Path file = gradient(values());
        long dataStart = Files.size(file) - 4L * ROWS * COLUMNS;
        NpyLayout layout = new NpyLayout(DType.FLOAT32, Shape.of(ROWS, 64, 64), dataStart, 0);
        GradientRows rows = GradientRows.open(new Gradient.NpyFile(file.toString(), layout), null);
        ReducePlan plan = plan("[2048,1,64]", ROWS, 64, 64);
        ReduceKernel partial = ReduceKernel.create(DType.FLOAT32, plan.input().elements());
        rows.reduce(plan, 0, ROWS, partial, 0, new Configuration());
        byte[] whole = partial.result(plan.input()).values();
        // a gradient row is 16 KiB: 64 rows a chunk, blocks of 256 rows (1 MiB of float64 sums), 4 chunks each
        assertThat(rows.chunkRows(plan)).isEqualTo(64);
        assertThat(TaskSource.FromReduction.blockRows(rows.chunkRows(plan), 64)).isEqualTo(1024);
        assertThat(TaskSource.FromReduction.blockRows(1000, 3)).isEqualTo(21000);
        assertThat(TaskSource.FromReduction.blockRows(100000, 3)).isEqualTo(21845);
        dev.tensorbroadcast.planner.PartitionPlan partitions = dev.tensorbroadcast.planner.PartitionPlan.builder(
                        plan.input(), plan.dtype())
                .partitions(3)
                .build();
        TaskSource.FromReduction source = new TaskSource.FromReduction(rows, plan);
        for (long index = 0; index < partitions.partitionCount(); index++) {
            dev.tensorbroadcast.planner.Partition partition = partitions.partition(index);
            TaskSource.ReducedRows reduced = source.rows(partition, new Configuration());
            int from = Math.toIntExact(4 * reduced.origin());
            assertThat(reduced.slice().values())
                    .as("partition %d", index)
                    .isEqualTo(Arrays.copyOfRange(
                            whole, from, from + reduced.slice().values().length));
            assertThat(reduced.bytesRead())
                    .isEqualTo(4L * 64 * 64 * reduced.rows().count());
        }
    }

    @Test
    void aSumAcrossRowsKeepsTheOldChunk() throws Exception {
        GradientRows rows = open(gradient(values()));
        // [2048,4096] -> [1]: one run of every element, whose four accumulators restart per chunk
        ReducePlan plan = plan("[1]", ROWS, COLUMNS);
        assertThat(rows.chunkBytes(plan)).isEqualTo(GradientRows.CHUNK_BYTES);
        assertThat(reduce(rows, plan, GradientRows.NPY_CHUNK_BYTES))
                .as("the small chunk would change this sum's bits")
                .isNotEqualTo(reduce(rows, plan, GradientRows.CHUNK_BYTES));
    }
}
