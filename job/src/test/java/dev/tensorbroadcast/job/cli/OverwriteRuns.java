package dev.tensorbroadcast.job.cli;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.SparkContext;

/**
 * The runs of the tests of a failed {@code --overwrite}: expands of one source row into four partitions, and the
 * hook of {@code InjectedFailure} that fails every attempt of partition 0's task after it wrote its file.
 */
final class OverwriteRuns {
    private final SparkPerClass spark;
    private final Path source;

    OverwriteRuns(SparkPerClass spark, Path source) {
        this.spark = requireNonNull(spark, "spark is null");
        this.source = requireNonNull(source, "source is null");
    }

    CliRun expand(Path output, String shape, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "expand",
                "--input",
                source.toString(),
                "--dialect",
                "numpy",
                "--shape",
                shape,
                "--partitions",
                "4",
                "--output",
                output.toString()));
        args.addAll(List.of(more));
        return CliRun.of(args.toArray(String[]::new));
    }

    void failPartitionZero(boolean fail) {
        SparkContext context = spark.session().sparkContext();
        context.setLocalProperty("tensorbroadcast.test.failPartition", fail ? "0" : null);
        context.setLocalProperty("tensorbroadcast.test.failAttempts", fail ? "all" : null);
    }
}
