package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.DiscardResult;
import dev.tensorbroadcast.arrowio.DiscardingTensorWriter;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.job.dataset.Crc32c;
import dev.tensorbroadcast.planner.Partition;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;

/** One Spark task of the null sink: fills the partition with the task's index batch by batch and discards it. */
final class DiscardTask implements Function2<Integer, Iterator<Integer>, Iterator<DiscardedPartition>> {
    private static final long serialVersionUID = 1L;

    private final Broadcast<SourceTensor> source;
    private final DatasetSpec spec;
    private final LongAccumulator bytesFilled;

    DiscardTask(Broadcast<SourceTensor> source, DatasetSpec spec, LongAccumulator bytesFilled) {
        this.source = requireNonNull(source, "source is null");
        this.spec = requireNonNull(spec, "spec is null");
        this.bytesFilled = requireNonNull(bytesFilled, "bytesFilled is null");
    }

    @Override
    public Iterator<DiscardedPartition> call(Integer index, Iterator<Integer> ignored) {
        Partition partition = spec.partitions().partition(index);
        DiscardResult result = DiscardingTensorWriter.create()
                .write(TensorKernel.of(source.value(), spec.program()), spec.partitions().rowShape(), partition);
        bytesFilled.add(result.valueBytes());
        return List.of(new DiscardedPartition(index, partition.firstRow(), result.rows(), result.valueBytes(),
                result.batches(), Crc32c.hex(result.crc32c()), SparkEnv.get().executorId())).iterator();
    }
}
