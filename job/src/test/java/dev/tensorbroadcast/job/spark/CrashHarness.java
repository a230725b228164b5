package dev.tensorbroadcast.job.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.planner.Dialect;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.spark.sql.SparkSession;

/**
 * What the crash tests share: one broadcast of {@code [4,1,64]} int32 rows, written first in local mode as the
 * reference, then run on the cluster; a dataset the cluster wrote is complete when it has one file per partition,
 * byte for byte the reference's, and nothing else. Each test then says only what it kills and what it asserts.
 */
final class CrashHarness implements AutoCloseable {
    private final Path source;
    private final Path reference;
    private final long[] shape;
    private final int partitions;
    private final SparkSession spark;

    private CrashHarness(Path source, Path reference, long[] shape, int partitions, SparkSession spark) {
        this.source = source;
        this.reference = reference;
        this.shape = shape;
        this.partitions = partitions;
        this.spark = spark;
    }

    /** Writes the reference in local mode (first: a JVM has one SparkContext at a time), then connects. */
    static CrashHarness start(LocalCluster cluster, Path dir, long[] shape, int partitions,
            Map<String, String> settings) throws IOException {
        Path source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {4, 1, 64});
        Path reference = dir.resolve("local");
        SparkSession local = LocalSpark.start();
        try {
            request(source, shape, partitions, reference).run(local);
        } finally {
            local.stop();
        }
        return new CrashHarness(source, reference, shape, partitions, ClusterRuns.session(cluster, settings));
    }

    private static TensorBroadcast request(Path source, long[] shape, int partitions, Path output) {
        return TensorBroadcast.builder().source(source.toString()).dialect(Dialect.NUMPY).shape(shape)
                .partitions(partitions).output(output.toString()).build();
    }

    /** The broadcast, written to {@code output}. */
    TensorBroadcast request(Path output) {
        return request(source, shape, partitions, output);
    }

    SparkSession spark() {
        return spark;
    }

    Path reference() {
        return reference;
    }

    int partitions() {
        return partitions;
    }

    /** One file per partition, in order, byte for byte local mode's, and nothing else in the directory. */
    void assertComplete(Path output, Manifest manifest) throws IOException {
        assertThat(manifest.files().stream().map(DatasetFile::partition).toList())
                .isEqualTo(LongStream.range(0, partitions).boxed().toList());
        ClusterRuns.assertSameFiles(output, reference);
        ClusterRuns.assertOnlyDatasetFiles(output, manifest);
    }

    @Override
    public void close() {
        spark.stop();
    }
}
