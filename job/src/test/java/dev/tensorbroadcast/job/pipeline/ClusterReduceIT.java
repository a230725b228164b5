package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.ReduceResult;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.TensorReduce;
import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code reduce} on a real two-worker cluster with HDFS: gradients on HDFS (a dataset read in slices, and a .npy whose
 * rows the tasks read by offset) summed in both regimes by tasks in two executor JVMs, giving the very bytes local
 * mode gives, also when an executor is killed while the partial sums are being made.
 */
@WithLocalCluster(
        workers = 2,
        workerCores = 1,
        workerMemory = "1g",
        hdfs = true,
        distinctWorkerHosts = true,
        shared = true)
@Tag(SharedCluster.TAG)
class ClusterReduceIT {
    /** This class's directory on the shared cluster's HDFS. */
    private static final String HOME = "/ClusterReduceIT";

    @TempDir
    static Path dir;

    private static URI hdfs;
    private static Path gradientNpy;
    private static Path gradientDataset;
    private static SparkSession spark;

    @BeforeAll
    static void gradientsAndLocalReferencesThenConnect(LocalCluster cluster) throws Exception {
        hdfs = cluster.hdfsUri().orElseThrow();
        // a float32 gradient of arbitrary values: the bits depend on the order of the additions
        Random random = new Random(5);
        ByteBuffer values = ByteBuffer.allocate(4 * 8 * 96 * 64).order(ByteOrder.LITTLE_ENDIAN);
        while (values.hasRemaining()) {
            values.putFloat((float) random.nextGaussian());
        }
        gradientNpy = NpyFiles.write(dir.resolve("grad.npy"), "<f4", new long[] {8, 96, 64}, values.array());
        Path source = NpyFiles.int32(dir.resolve("rows.npy"), new long[] {8, 1, 64});
        gradientDataset = dir.resolve("expanded");
        SparkSession local = LocalSpark.start();
        try {
            TensorBroadcast.builder()
                    .source(source.toString())
                    .dialect(Dialect.NUMPY)
                    .shape(8, 96, 64)
                    .format(dev.tensorbroadcast.job.OutputFormat.PARQUET)
                    .partitions(3)
                    .output(gradientDataset.toString())
                    .build()
                    .run(local);
            reduce(
                            gradientNpy.toString(),
                            "[1,64]",
                            dir.resolve("local-summed.npy").toString())
                    .run(local);
            reduce(
                            gradientDataset.toString(),
                            "[8,1,64]",
                            dir.resolve("local-kept").toString())
                    .run(local);
        } finally {
            local.stop();
        }
        Configuration conf = new Configuration();
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, conf)) {
            fileSystem.copyFromLocalFile(
                    new org.apache.hadoop.fs.Path(gradientNpy.toString()),
                    new org.apache.hadoop.fs.Path(HOME + "/grad.npy"));
            fileSystem.copyFromLocalFile(
                    new org.apache.hadoop.fs.Path(gradientDataset.toString()),
                    new org.apache.hadoop.fs.Path(HOME + "/expanded"));
        }
        spark = ClusterRuns.session(cluster);
    }

    @AfterAll
    static void disconnect() {
        if (spark != null) {
            spark.stop();
        }
    }

    /** The forward request {@code input -> [8,96,64]} (numpy), reduced in 6 tasks, the .npy read by the tasks. */
    private static TensorReduce reduce(String gradient, String input, String output) {
        return TensorReduce.builder()
                .gradient(gradient)
                .dialect(Dialect.NUMPY)
                .inputShape(Shape.parse(input))
                .shape(TargetShape.parse("[8,96,64]"))
                .partitions(6)
                .shipThreshold(0)
                .output(output)
                .build();
    }

    @Test
    void bothRegimesReadFromHdfsAndGiveWhatLocalModeGives() throws Exception {
        Path summed = dir.resolve("cluster-summed.npy");
        List<ReduceResult> rows =
                reduce(hdfs + HOME + "/grad.npy", "[1,64]", summed.toString()).run(spark);
        assertThat(rows).singleElement().extracting(ReduceResult::regime).isEqualTo(ReducePlan.Regime.ROWS_SUMMED);
        assertThat(reduce(hdfs + HOME + "/grad.npy", "[1,64]", "/unused")
                        .prepare(spark.sparkContext().hadoopConfiguration())
                        .gradientStrategy())
                .isEqualTo("npy-rows");
        assertThat(Files.readAllBytes(summed)).isEqualTo(Files.readAllBytes(dir.resolve("local-summed.npy")));

        String kept = hdfs + HOME + "/kept";
        List<ReduceResult> keptRows =
                reduce(hdfs + HOME + "/expanded", "[8,1,64]", kept).run(spark);
        assertThat(keptRows).singleElement().extracting(ReduceResult::regime).isEqualTo(ReducePlan.Regime.ROWS_KEPT);
        Path copied = dir.resolve("cluster-kept");
        try (FileSystem fileSystem = FileSystem.newInstance(hdfs, new Configuration())) {
            fileSystem.copyToLocalFile(
                    false,
                    new org.apache.hadoop.fs.Path(HOME + "/kept"),
                    new org.apache.hadoop.fs.Path(copied.toString()),
                    true);
        }
        ClusterRuns.assertSameFiles(copied, dir.resolve("local-kept"));
        // each result row is its source row times the 96 copies expand made of it
        List<DatasetFiles.ArrowRow> resultRows = DatasetFiles.arrowRows(copied, DatasetFiles.manifest(copied));
        assertThat(resultRows).hasSize(8);
        for (DatasetFiles.ArrowRow row : resultRows) {
            for (int c = 0; c < 64; c++) {
                assertThat(row.values().get(c)).isEqualTo(96 * NpyFiles.value(64 * row.index() + c));
            }
        }
    }

    @Test
    void aKilledExecutorGivesTheSameBits(ProcessCluster cluster) throws Exception {
        Path output = dir.resolve("killed.npy");
        ClusterRuns.killingWhileRunning(
                spark,
                1000,
                1,
                ClusterRuns.anExecutor(cluster),
                () -> reduce(hdfs + HOME + "/grad.npy", "[1,64]", output.toString())
                        .run(spark));
        assertThat(Files.readAllBytes(output)).isEqualTo(Files.readAllBytes(dir.resolve("local-summed.npy")));
    }
}
