package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code spark.read.format("tensorbroadcast").load(dir)} of Arrow, Parquet and Zarr datasets on S3 (S3Proxy, one
 * per class), written there by the Java API on a local Spark whose Hadoop settings point S3A at the server.
 */
@WithS3Server
class DatasetSourceS3IT {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    @Test
    void readsArrowParquetAndZarrFromS3(S3Server s3) throws IOException {
        Configuration conf = SPARK.session().sparkContext().hadoopConfiguration();
        s3.hadoopSettings().forEach(conf::set);
        String input = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 4}).toString();
        for (String format : List.of("arrow", "parquet", "zarr")) {
            StoredDatasets.assertReadsBack(SPARK.session(), input, s3.uri("source-" + format), format);
        }
    }
}
