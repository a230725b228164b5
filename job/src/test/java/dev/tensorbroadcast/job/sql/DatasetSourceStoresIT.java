package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SharedCluster;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import dev.tensorbroadcast.planner.Dialect;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spark.read.format("tensorbroadcast").load(dir)} of Arrow, Parquet and Zarr datasets on HDFS (the shared
 * cluster's) and S3 (S3Proxy), written there by the Java API on a local Spark, against the broadcast read without
 * writing it.
 */
@WithLocalCluster(workers = 2, workerCores = 1, workerMemory = "1g", hdfs = true, distinctWorkerHosts = true,
        shared = true)
@Tag(SharedCluster.TAG)
@WithS3Server
class DatasetSourceStoresIT {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    static Path dir;

    private static String hdfs;
    private static String input;

    @BeforeAll
    static void pointAtTheStores(ProcessCluster cluster, S3Server s3) throws IOException {
        hdfs = cluster.hdfsUri().orElseThrow() + "/DatasetSourceStoresIT";
        Configuration conf = SPARK.session().sparkContext().hadoopConfiguration();
        s3.hadoopSettings().forEach(conf::set);
        input = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4}).toString();
    }

    @Test
    void readsArrowParquetAndZarrFromHdfs() {
        for (String format : List.of("arrow", "parquet", "zarr")) {
            assertReadsBack(hdfs + "/" + format, format);
        }
    }

    @Test
    void readsArrowParquetAndZarrFromS3(S3Server s3) {
        for (String format : List.of("arrow", "parquet", "zarr")) {
            assertReadsBack(s3.uri("source-" + format), format);
        }
    }

    private static void assertReadsBack(String output, String format) {
        TensorBroadcast.builder().source(input).dialect(Dialect.NUMPY).shape(8, 2, 4).partitions(2)
                .format(OutputFormat.parse(format)).output(output).build().run(spark());

        Dataset<Row> table = spark().read().format("tensorbroadcast").load(output);
        Dataset<Row> broadcast = spark().read().format("tensorbroadcast").option("input", input)
                .option("dialect", "numpy").option("shape", "8,2,4").load();

        assertThat(table.schema().apply("tensor").metadata().getLongArray(SparkTypes.SHAPE_METADATA))
                .as(output).containsExactly(2, 4);
        assertThat(DatasetSourceTest.rows(table)).as(output).hasSize(8)
                .isEqualTo(DatasetSourceTest.rows(broadcast));
        assertThat(DatasetSourceTest.rows(table.where("index >= 4"))).as(output)
                .isEqualTo(DatasetSourceTest.rows(broadcast).subList(4, 8));
    }

    private static SparkSession spark() {
        return SPARK.session();
    }
}
