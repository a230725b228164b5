package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.dataset.DatasetDirectory;
import dev.tensorbroadcast.job.dataset.NpyExporter;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.ClusterRuns;
import dev.tensorbroadcast.job.pipeline.DatasetFiles;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SharedCluster;
import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.Dialect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tensorbroadcast} data source on a real standalone cluster (the shared one): the scans' partitions, the
 * reader factories, the shipped source and Hadoop settings go to executor JVMs that load our classes from the
 * spark-submit jar, as on any cluster. The broadcast read's rows are {@code expand}'s files byte for byte for every
 * dialect and 14 dtypes ({@link TensorBytes}, as {@link TensorBroadcastSourceTest} checks them on a local Spark),
 * Spark's own sinks and ours write them, {@code load(dir)} reads back Arrow, Parquet and Zarr datasets from the local
 * disk, the cluster's HDFS and S3 (S3Proxy), and bad options and incomplete datasets are refused in the same line as
 * on a local Spark.
 */
@WithLocalCluster(
        workers = 2,
        workerCores = 1,
        workerMemory = "1g",
        hdfs = true,
        distinctWorkerHosts = true,
        shared = true)
@Tag(SharedCluster.TAG)
@WithS3Server
class DataSourceClusterIT {
    /** This class's directory on the shared cluster's HDFS. */
    private static final String HOME = "/DataSourceClusterIT";

    private static final Set<String> TASK_EXECUTORS = ConcurrentHashMap.newKeySet();

    @TempDir
    static Path dir;

    private static SparkSession spark;
    private static String hdfs;
    private static String s3;

    /** A session on the cluster whose executors reach the class's S3 server too. */
    @BeforeAll
    static void connect(LocalCluster cluster, S3Server server) {
        hdfs = cluster.hdfsUri().orElseThrow() + HOME;
        s3 = server.uri(HOME);
        spark = ClusterRuns.session(cluster, server.sparkSettings());
        spark.sparkContext().addSparkListener(new SparkListener() {
            @Override
            public void onTaskEnd(SparkListenerTaskEnd task) {
                TASK_EXECUTORS.add(task.taskInfo().executorId());
            }
        });
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    @BeforeEach
    void forgetTasks() {
        TASK_EXECUTORS.clear();
    }

    @Test
    void broadcastRowsAreExpandsBytesForEveryDialectAndDtype() throws IOException {
        for (TensorBytes broadcast : TensorBytes.CASES) {
            Path home = Files.createDirectories(
                    dir.resolve("broadcast-" + broadcast.toString().replaceAll("[^a-z0-9]+", "-")));
            String input = broadcast.source(home).toString();

            Dataset<Row> table = broadcast.options(read(), input).load();

            assertThat(table.count()).as(broadcast.toString()).isEqualTo(2);
            assertThat(broadcast.values(table))
                    .as(broadcast.toString())
                    .isEqualTo(broadcast.expanded(input, spark, home));
        }
        assertRanOnExecutors();
    }

    @Test
    void sparksSinksWriteTheTableFromTheExecutors() throws IOException {
        String input = TensorBytes.npy(dir, "<f2", new long[] {2, 1, 3}).toString();
        Dataset<Row> table = read().option("input", input)
                .option("dialect", "numpy")
                .option("shape", "2,4,3")
                .option("partitions", "2")
                .load();
        List<List<Object>> rows = DatasetSourceTest.rows(table);
        assertThat(rows).hasSize(2);

        for (String sink : List.of("parquet", "orc", "json")) {
            String written = dir.resolve("sink." + sink).toString();
            table.write().format(sink).save(written);
            DataFrameReader reader = spark.read().format(sink);
            Dataset<Row> back =
                    sink.equals("json") ? reader.schema(table.schema()).load(written) : reader.load(written);

            assertThat(DatasetSourceTest.rows(back)).as(sink).isEqualTo(rows);
        }
        assertRanOnExecutors();
    }

    /**
     * {@code df.write.format("tensorbroadcast")} on the cluster: the executors write the part files, the driver puts
     * them in place; they are {@code expand}'s byte for byte (a Parquet footer's encodings in any order: each executor
     * JVM orders them its own way), and the manifest names the executors that wrote them.
     */
    @Test
    void theSinkWritesExpandsFilesFromTheExecutors() throws IOException {
        String input =
                NpyFiles.int32(dir.resolve("sink-in.npy"), new long[] {3, 1, 4}).toString();
        for (String format : List.of("arrow", "parquet")) {
            Path expanded = dir.resolve("sink-expand-" + format);
            TensorBroadcast.builder()
                    .source(input)
                    .dialect(Dialect.NUMPY)
                    .shape(6, 3, 5, 4)
                    .partitions(3)
                    .format(OutputFormat.parse(format))
                    .output(expanded.toString())
                    .build()
                    .run(spark);
            Path written = dir.resolve("sink-" + format);

            read().option("input", input)
                    .option("dialect", "numpy")
                    .option("shape", "6,3,5,4")
                    .option("partitions", "3")
                    .load()
                    .write()
                    .format("tensorbroadcast")
                    .option("format", format)
                    .mode("append")
                    .save(written.toString());

            ClusterRuns.assertSameFiles(written, expanded);
            Manifest manifest = DatasetFiles.manifest(written);
            assertThat(manifest.files()).as(format).hasSize(3);
            assertThat(manifest.files()).extracting(DatasetFile::executorId).doesNotContain("driver");
        }
        assertRanOnExecutors();
    }

    /**
     * Each format written by {@code expand} on the cluster to the local disk, HDFS and S3, read back by the executors:
     * the rows are the broadcast's and the dataset's own bytes (exported as {@code .npy}), the shape in the schema.
     */
    @Test
    void loadReadsArrowParquetAndZarrFromLocalDiskHdfsAndS3() throws IOException {
        String input = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4}).toString();
        TensorBytes int32 = TensorBytes.of("<i4", "numpy");
        for (String format : List.of("arrow", "parquet", "zarr")) {
            for (String output :
                    List.of(dir.resolve("load-" + format).toString(), hdfs + "/" + format, s3 + "/" + format)) {
                StoredDatasets.assertReadsBack(spark, input, output, format);

                Dataset<Row> table = read().load(output);
                assertThat(int32.values(table)).as(output).isEqualTo(exported(output));
            }
        }
        assertRanOnExecutors();
    }

    @Test
    void badOptionsAndIncompleteDatasetsAreRefusedInOneLine() throws IOException {
        String input = TensorBytes.npy(dir, "<f4", new long[] {2, 3}).toString();
        assertThatThrownBy(() -> read().option("input", input)
                        .option("dialect", "numpy")
                        .option("shape", "4,3")
                        .load())
                .isInstanceOf(BroadcastException.class)
                .hasMessage("Cannot broadcast (2,3) to (4,3) [numpy]: dim 0 is 2 in the input and 4 in the target;"
                        + " only 1 can grow (the input needs 4 or 1 there)");
        assertThatThrownBy(() -> read().option("input", input)
                        .option("dialect", "numpy")
                        .option("shap", "2,3")
                        .load())
                .hasMessage(
                        "Cannot read a tensorbroadcast table with option 'shap': expected input, dialect, shape,"
                                + " mode, axes-mapping, broadcast-axes, axis, column, row-shape, partitions, partition-size, keep");

        String output = dir.resolve("incomplete").toString();
        TensorBroadcast.builder()
                .source(input)
                .dialect(Dialect.NUMPY)
                .shape(4, 2, 3)
                .partitions(2)
                .format(OutputFormat.PARQUET)
                .output(output)
                .build()
                .run(spark);
        Files.delete(Path.of(output, "_SUCCESS"));
        Files.delete(Path.of(output, "part-00001.parquet"));
        assertThatThrownBy(() -> read().load(output))
                .hasMessage("Cannot read " + output + ": the dataset is incomplete (no _SUCCESS; part-00001.parquet"
                        + " is missing); only a complete dataset can be read");
    }

    /** The dataset at {@code output} as {@code export} writes it, the values of its .npy. */
    private static byte[] exported(String output) throws IOException {
        Path npy = Files.createTempFile(dir, "exported-", ".npy");
        Files.delete(npy);
        try (DatasetDirectory written =
                DatasetDirectory.open(output, spark.sparkContext().hadoopConfiguration(), "export")) {
            new NpyExporter(written, NpyExporter.DEFAULT_MAX_BYTES).export(npy, false);
        }
        return TensorBytes.npyValues(npy);
    }

    /** The test's tasks ran in the cluster's executors, the driver none of them. */
    private static void assertRanOnExecutors() {
        assertThat(TASK_EXECUTORS).isNotEmpty().doesNotContain("driver");
    }

    private static DataFrameReader read() {
        return spark.read().format("tensorbroadcast");
    }
}
