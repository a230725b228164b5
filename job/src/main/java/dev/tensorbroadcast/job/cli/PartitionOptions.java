package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.ByteSize;
import java.util.OptionalLong;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** How the output is cut into partitions: a target size or an exact count. Shared by plan and the Spark commands. */
final class PartitionOptions {
    @Option(
            names = "--partition-size",
            paramLabel = "<size>",
            description = "Target bytes per partition and file, such as 128m (default), 64k, 1g or 4096; binary units.")
    String partitionSize;

    @Option(
            names = "--partitions",
            paramLabel = "<count>",
            description = "An exact partition count instead of a size; fewer when the output has fewer rows.")
    Long partitions;

    void check(CommandSpec spec) {
        ExclusiveOptions.requireAtMostOne(
                spec,
                "--partition-size",
                partitionSize,
                "--partitions",
                partitions,
                "give a size per partition or a partition count");
    }

    OptionalLong bytes() {
        return partitionSize == null
                ? OptionalLong.empty()
                : OptionalLong.of(ByteSize.parse("partition size", partitionSize));
    }

    OptionalLong count() {
        return partitions == null ? OptionalLong.empty() : OptionalLong.of(partitions);
    }
}
