package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SharedCluster;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spark.read.format("tensorbroadcast").load(dir)} of Arrow, Parquet and Zarr datasets on the shared cluster's
 * HDFS, written there by the Java API on a local Spark.
 */
@WithLocalCluster(
        workers = 2,
        workerCores = 1,
        workerMemory = "1g",
        hdfs = true,
        distinctWorkerHosts = true,
        shared = true)
@Tag(SharedCluster.TAG)
class DatasetSourceHdfsIT {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    @Test
    void readsArrowParquetAndZarrFromHdfs(ProcessCluster cluster) throws IOException {
        String input = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4}).toString();
        String home = cluster.hdfsUri().orElseThrow() + "/DatasetSourceHdfsIT";
        for (String format : List.of("arrow", "parquet", "zarr")) {
            StoredDatasets.assertReadsBack(SPARK.session(), input, home + "/" + format, format);
        }
    }
}
