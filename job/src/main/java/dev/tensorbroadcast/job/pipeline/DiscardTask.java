package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.DiscardResult;
import dev.tensorbroadcast.arrowio.DiscardingTensorWriter;
import dev.tensorbroadcast.job.base.Crc32c;
import dev.tensorbroadcast.job.base.DiscardedBroadcast;
import dev.tensorbroadcast.job.source.TaskSource;
import dev.tensorbroadcast.planner.Partition;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.LongAccumulator;
import org.apache.spark.util.SerializableConfiguration;

/** One Spark task of the null sink: fills the partition with the task's index batch by batch and discards it. */
final class DiscardTask implements Function2<Integer, Iterator<Integer>, Iterator<DiscardedBroadcast.Partition>> {
    private static final long serialVersionUID = 1L;

    private final TaskSource source;
    private final DatasetSpec spec;
    private final Broadcast<SerializableConfiguration> conf;
    private final LongAccumulator bytesFilled;

    DiscardTask(
            TaskSource source,
            DatasetSpec spec,
            Broadcast<SerializableConfiguration> conf,
            LongAccumulator bytesFilled) {
        this.source = requireNonNull(source, "source is null");
        this.spec = requireNonNull(spec, "spec is null");
        this.conf = requireNonNull(conf, "conf is null");
        this.bytesFilled = requireNonNull(bytesFilled, "bytesFilled is null");
    }

    @Override
    public Iterator<DiscardedBroadcast.Partition> call(Integer index, Iterator<Integer> ignored) {
        Partition partition = spec.partitions().partition(index);
        TaskSource.TaskInput input =
                source.input(partition, spec.program(), conf.value().value());
        DiscardResult result = DiscardingTensorWriter.create()
                .write(input.kernel(), spec.partitions().rowShape(), partition);
        bytesFilled.add(result.valueBytes());
        return List.of(new DiscardedBroadcast.Partition(
                        index,
                        partition.firstRow(),
                        result.rows(),
                        result.valueBytes(),
                        result.batches(),
                        Crc32c.hex(result.crc32c()),
                        TaskPlace.executorId()))
                .iterator();
    }
}
