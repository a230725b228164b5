package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.localcluster.junit.LocalClusterExtension;
import dev.tensorbroadcast.planner.Dialect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the crash tests share, as an extension of a {@code @WithLocalCluster} class: one broadcast of {@code [4,1,64]}
 * int32 rows, written first in local mode as the reference, then a session on the class's cluster; a dataset the
 * cluster wrote is complete when it has one file per partition, byte for byte the reference's, and nothing else.
 * Each test then says only what it kills and what it asserts:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final CrashHarness run = CrashHarness.broadcasting(4, 960, 64).partitions(24);
 * }</pre>
 */
final class CrashHarness implements BeforeAllCallback, AfterAllCallback {
    private final long[] shape;
    private final int partitions;
    private final Map<String, String> settings;
    private Path directory;
    private Path source;
    private Path reference;
    private SparkSession spark;

    private CrashHarness(long[] shape, int partitions, Map<String, String> settings) {
        this.shape = shape;
        this.partitions = partitions;
        this.settings = Map.copyOf(settings);
    }

    /** The broadcast of the rows to {@code shape}, in one partition until {@link #partitions} says otherwise. */
    static CrashHarness broadcasting(long... shape) {
        return new CrashHarness(shape.clone(), 1, Map.of());
    }

    CrashHarness partitions(int partitions) {
        return new CrashHarness(shape, partitions, settings);
    }

    /** Spark settings of the cluster session, such as speculation's. */
    CrashHarness settings(Map<String, String> settings) {
        return new CrashHarness(shape, partitions, requireNonNull(settings, "settings is null"));
    }

    /** Writes the reference in local mode (first: a JVM has one SparkContext at a time), then connects. */
    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        directory = Files.createTempDirectory("crash-harness-");
        // closed with the class's store, after every afterAll: the cluster, and with it every executor that might
        // still write here, is gone by then
        Path created = directory;
        context.getStore(ExtensionContext.Namespace.create(CrashHarness.class))
                .put("directory", (AutoCloseable) () -> delete(created));
        source = NpyFiles.int32(directory.resolve("rows.npy"), new long[] {4, 1, 64});
        reference = directory.resolve("local");
        SparkSession local = LocalSpark.start();
        try {
            request(reference).run(local);
        } finally {
            local.stop();
        }
        spark = ClusterRuns.session(LocalClusterExtension.cluster(context), settings);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (spark != null) {
            spark.stop();
        }
    }

    private static void delete(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** The broadcast, written to {@code output}. */
    TensorBroadcast request(Path output) {
        return TensorBroadcast.builder()
                .source(source.toString())
                .dialect(Dialect.NUMPY)
                .shape(shape)
                .partitions(partitions)
                .output(output.toString())
                .build();
    }

    /** A path for a test's output in the class's own directory, which is deleted after the class. */
    Path output(String name) {
        return directory.resolve(name);
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
}
