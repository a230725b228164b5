package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.SourceSlice;
import dev.tensorbroadcast.arrowio.source.TensorDataset;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.broadcast.Broadcast;

/** What a task receives to get its source from: a kernel for its partition, and what getting it read. */
interface TaskSource extends Serializable {
    /** The kernel filling {@code partition} of {@code program}'s output. */
    TaskInput input(Partition partition, CopyProgram program, Configuration conf);

    /** Frees what the job shipped, once it has finished. */
    void release();

    /**
     * A task's kernel and what it read.
     *
     * @param rows the source rows the partition reads
     * @param bytesRead the bytes the task read from the source's files (0 for a shipped source)
     */
    record TaskInput(TensorKernel kernel, SourceRows rows, long bytesRead) {}

    /** The whole source from a broadcast variable. */
    record FromBroadcast(Broadcast<SourceTensor> source) implements TaskSource {
        public FromBroadcast {
            requireNonNull(source, "source is null");
        }

        @Override
        public TaskInput input(Partition partition, CopyProgram program, Configuration conf) {
            SourceTensor tensor = source.value();
            long rows = tensor.shape().rank() == 0 ? 1 : tensor.shape().dim(0);
            return new TaskInput(TensorKernel.of(tensor, program), new SourceRows(0, rows), 0);
        }

        @Override
        public void release() {
            source.destroy();
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
            TensorKernel kernel = TensorKernel.ofSlice(slice.tensor(), program, origin, partition.firstElement(),
                    partition.endElement());
            return new TaskInput(kernel, rows, slice.bytesRead());
        }

        @Override
        public void release() {
        }
    }
}
