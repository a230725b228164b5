package dev.tensorbroadcast.job.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.arrowio.reduce.ReduceKernel;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.SourceSlice;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;

/** What a task receives to get its source from: a kernel for its partition, and what getting it read. */
public interface TaskSource extends Serializable {
    /** The kernel filling {@code partition} of {@code program}'s output. */
    TaskInput input(Partition partition, CopyProgram program, Configuration conf);

    /** Frees what the job shipped, once it has finished. */
    void release();

    /** The kept columns of the source rows that {@code partition}'s rows come from; close them after writing. */
    default KeptRows kept(Partition partition, KeptSpec spec, Configuration conf) {
        throw new IllegalStateException(getClass().getSimpleName() + " keeps no columns");
    }

    /**
     * A task's kernel and what it read.
     *
     * @param rows the source rows the partition reads
     * @param bytesRead the bytes the task read from the source's files (0 for a shipped source)
     */
    record TaskInput(TensorKernel kernel, SourceRows rows, long bytesRead) {}

    /** The whole source from a broadcast variable. */
    record FromBroadcast(Broadcast<SourceTensor> source, Broadcast<byte[]> keptRows) implements TaskSource {
        public FromBroadcast {
            requireNonNull(source, "source is null");
        }

        @Override
        public KeptRows kept(Partition partition, KeptSpec spec, Configuration conf) {
            if (keptRows == null) {
                throw new IllegalStateException("no kept columns were shipped");
            }
            return KeptRows.fromIpc(
                    spec.columns(),
                    spec.lineage().sourceRows(partition.firstRow(), partition.endRow()),
                    keptRows.value());
        }

        @Override
        public TaskInput input(Partition partition, CopyProgram program, Configuration conf) {
            SourceTensor tensor = source.value();
            long rows = tensor.shape().rank() == 0 ? 1 : tensor.shape().dim(0);
            return new TaskInput(TensorKernel.of(tensor, program), new SourceRows(0, rows), 0);
        }

        @Override
        public void release() {
            dev.tensorbroadcast.job.base.Broadcasts.destroy(source);
            if (keptRows != null) {
                dev.tensorbroadcast.job.base.Broadcasts.destroy(keptRows);
            }
        }
    }

    /** The rows the partition reads, from the dataset's files. */
    record FromDataset(TensorDataset dataset, BroadcastPlan plan, int input) implements TaskSource {
        public FromDataset {
            requireNonNull(dataset, "dataset is null");
            requireNonNull(plan, "plan is null");
        }

        @Override
        public TaskInput input(Partition partition, CopyProgram program, Configuration conf) {
            SourceRows rows = plan.sourceRows(input, partition);
            SourceSlice slice = DatasetSlices.read(dataset, rows, conf);
            long origin = rows.first() * dataset.rowShape().elements();
            TensorKernel kernel = TensorKernel.ofSlice(
                    slice.tensor(), program, origin, partition.firstElement(), partition.endElement());
            return new TaskInput(kernel, rows, slice.bytesRead());
        }

        @Override
        public KeptRows kept(Partition partition, KeptSpec spec, Configuration conf) {
            return KeptReader.read(
                    dataset, spec.lineage().sourceRows(partition.firstRow(), partition.endRow()), spec.columns(), conf);
        }

        @Override
        public void release() {}
    }

    /**
     * The slice of a reduce's result that a partition holds, summed from the gradient rows of the result rows it
     * touches; those rows are reduced whole and the kernel copies the partition's elements out of them.
     */
    /** Result rows {@code rows}, held from result element {@code origin} on, and the gradient bytes read for them. */
    record ReducedRows(SourceTensor slice, long origin, SourceRows rows, long bytesRead) {}

    record FromReduction(GradientRows gradient, ReducePlan plan) implements TaskSource {
        /** The float64 sums a rows-kept task holds at once: small enough to stay in a core's cache. */
        static final long KEPT_BLOCK_BYTES = 1L << 20;

        public FromReduction {
            requireNonNull(gradient, "gradient is null");
            requireNonNull(plan, "plan is null");
        }

        @Override
        public TaskInput input(Partition partition, CopyProgram program, Configuration conf) {
            ReducedRows reduced = rows(partition, conf);
            TensorKernel kernel = TensorKernel.ofSlice(
                    reduced.slice(), program, reduced.origin(), partition.firstElement(), partition.endElement());
            return new TaskInput(kernel, reduced.rows(), reduced.bytesRead());
        }

        /**
         * The whole result rows that {@code partition}'s elements lie in, summed from their gradient rows, a block
         * of rows at a time ({@link #KEPT_BLOCK_BYTES} of float64 sums): result row r sums gradient row r alone (the
         * rows-kept regime), so a block's sums are final once its rows are read, and the float64 sums of a whole
         * task's rows (twice the float32 result's bytes) are never allocated, zeroed and read back from memory. One
         * partial, one open file and one read buffer serve every block, and each block's sums are rounded straight
         * into the result: fresh memory per block cost a task more than its sums (docs/benchmarks.md, issue 28).
         */
        public ReducedRows rows(Partition partition, Configuration conf) {
            long rowElements = plan.inputRowElements();
            long firstRow = partition.firstElement() / rowElements;
            long endRow = (partition.endElement() + rowElements - 1) / rowElements;
            long origin = firstRow * rowElements;
            int width = plan.dtype().byteWidth();
            byte[] values = new byte[Math.toIntExact((endRow - firstRow) * rowElements * width)];
            long blockRows = blockRows(gradient.chunkRows(plan), rowElements);
            long bytesRead = 0;
            ReduceKernel partial =
                    ReduceKernel.create(plan.dtype(), Math.min(blockRows, endRow - firstRow) * rowElements);
            try (GradientRows.Reader reader = gradient.reader(conf)) {
                for (long row = firstRow; row < endRow; row += blockRows) {
                    long end = Math.min(endRow, row + blockRows);
                    bytesRead += reader.reduce(plan, row, end, partial, row * rowElements);
                    partial.takeResult(
                            Math.toIntExact((end - row) * rowElements),
                            values,
                            Math.toIntExact((row - firstRow) * rowElements * width));
                }
            }
            long[] dims = plan.input().dims();
            dims[0] = endRow - firstRow;
            return new ReducedRows(
                    SourceTensor.fixedWidth(plan.dtype(), Shape.of(dims), values, null),
                    origin,
                    new SourceRows(firstRow, endRow),
                    bytesRead);
        }

        /**
         * The rows of a block: {@link #KEPT_BLOCK_BYTES} of float64 sums, in whole read chunks when a chunk is smaller,
         * so that every read but a task's last is the same size and reuses the reader's buffer.
         */
        static long blockRows(long chunkRows, long rowElements) {
            long rows = Math.max(1, KEPT_BLOCK_BYTES / (16 * Math.max(1, rowElements)));
            return rows > chunkRows ? rows / chunkRows * chunkRows : rows;
        }

        @Override
        public void release() {
            gradient.release();
        }
    }
}
