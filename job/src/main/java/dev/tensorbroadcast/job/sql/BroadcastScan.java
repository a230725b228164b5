package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import java.util.OptionalLong;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.StructType;

/**
 * The scan of a whole broadcast: one input partition per planner partition, the source shipped once per executor
 * (a Spark broadcast), the row count and bytes told to the optimizer.
 */
final class BroadcastScan implements SupportsReportStatistics, Batch {
    private final BroadcastRead read;

    BroadcastScan(BroadcastRead read) {
        this.read = requireNonNull(read, "read is null");
    }

    @Override
    public StructType readSchema() {
        return read.schema();
    }

    @Override
    public String description() {
        return "tensorbroadcast " + read.plan().dialect().dialectName() + ": "
                + read.source().shape().toList()
                + " to " + read.plan().output().toList() + " "
                + read.source().dtype().typeName() + " ("
                + read.partitions().partitionCount() + " partitions)";
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        return IntStream.range(0, Math.toIntExact(read.partitions().partitionCount()))
                .mapToObj(BroadcastPartition::new)
                .toArray(InputPartition[]::new);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        JavaSparkContext java =
                JavaSparkContext.fromSparkContext(SparkSession.active().sparkContext());
        return new BatchReaders(
                java.<SourceTensor>broadcast(read.source()),
                read.plan().copyProgram(0),
                read.partitions(),
                BatchReaders.BATCH_BYTES,
                read.kept().map(BroadcastKept::spec).orElse(null),
                read.kept().map(kept -> java.broadcast(kept.rows())).orElse(null));
    }

    @Override
    public Statistics estimateStatistics() {
        long rows = read.partitions().rows();
        // the values, and each row's 8-byte index and kept columns (KeptSparkTypes.rowBytes: their types' sizes)
        long perRow = 8
                + read.kept()
                        .map(kept -> KeptSparkTypes.rowBytes(kept.spec().columns()))
                        .orElse(0L);
        long besides = rows > Long.MAX_VALUE / perRow ? Long.MAX_VALUE : perRow * rows;
        long values = read.partitions().bytes();
        long bytes = values > Long.MAX_VALUE - besides ? Long.MAX_VALUE : values + besides;
        return new Statistics() {
            @Override
            public OptionalLong sizeInBytes() {
                return OptionalLong.of(bytes);
            }

            @Override
            public OptionalLong numRows() {
                return OptionalLong.of(rows);
            }
        };
    }

    /** One planner partition, by its index. */
    record BroadcastPartition(int index) implements InputPartition {}
}
