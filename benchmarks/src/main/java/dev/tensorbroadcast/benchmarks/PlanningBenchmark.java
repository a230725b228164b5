package dev.tensorbroadcast.benchmarks;

import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * Plans a 10^15-element output ([1000000,1000000,1000] float32 from [1,1000]) into 10^6 partitions and walks every
 * partition descriptor, as a Spark driver would. The fork's heap is capped at 256 MiB: planning must fit in it.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx256m"})
public class PlanningBenchmark {
    @Benchmark
    public long planTenToTheFifteenIntoAMillionPartitions() {
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(Shape.of(1, 1000))
                .target(1_000_000, 1_000_000, 1000)
                .build()
                .plan();
        PartitionPlan partitions =
                PartitionPlan.builderFor(plan).partitions(1_000_000).build();
        CopyProgram program = plan.copyProgram(0);
        long rows = program.depth();
        for (long i = 0; i < partitions.partitionCount(); i++) {
            Partition partition = partitions.partition(i);
            rows += partition.rowCount();
        }
        return rows;
    }
}
