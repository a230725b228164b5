package dev.tensorbroadcast.job.sql;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.cli.TensorBroadcastCli;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.ParquetFooters;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.job.store.s3.S3aDefaults;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import dev.tensorbroadcast.planner.Dialect;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code df.write.format("tensorbroadcast").save("s3a://...")} on S3 (S3Proxy): the tasks' files go through S3A's
 * magic committer as {@code expand}'s do, completed at the job's commit with no object copied (a rename on S3 is a
 * copy), and the dataset is {@code expand}'s: the same objects, the same bytes, complete by {@code inspect}.
 */
@WithS3Server
class DatasetSinkS3IT {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    @Test
    void writesExpandsDatasetThroughTheMagicCommitter(S3Server s3) throws Exception {
        Configuration conf = SPARK.session().sparkContext().hadoopConfiguration();
        s3.hadoopSettings().forEach(conf::set);
        FileSystem.closeAll();
        FileSystem fileSystem = FileSystem.get(URI.create(s3.uri("")), S3aDefaults.apply(conf));
        String input =
                NpyFiles.int32(dir.resolve("in.npy"), new long[] {3, 1, 4}).toString();
        for (String format : List.of("arrow", "parquet", "zarr")) {
            boolean zarr = format.equals("zarr");
            OutputFormat output = OutputFormat.parse(format);
            TensorBroadcast.builder()
                    .source(input)
                    .dialect(Dialect.NUMPY)
                    .shape(6, 3, 5, 4)
                    .partitions(3)
                    .format(
                            zarr
                                    ? output.withChunking(new ArrayChunking(new long[] {2, 3, 5, 2}, new long[0]))
                                    : output)
                    .output(s3.uri("expand-" + format))
                    .build()
                    .run(SPARK.session());
            DataFrameWriter<Row> sink = SPARK.session()
                    .read()
                    .format("tensorbroadcast")
                    .option("input", input)
                    .option("dialect", "numpy")
                    .option("shape", "6,3,5,4")
                    .option("partitions", "3")
                    .load()
                    .write()
                    .format("tensorbroadcast")
                    .option("format", format)
                    .mode("append");
            if (zarr) {
                sink.option("chunks", "2,3,5,2");
            }
            long copies = counter(fileSystem, "object_copy_requests");
            long staged = counter(fileSystem, "committer_magic_files_created");
            long completed = counter(fileSystem, "committer_commits_completed");

            sink.save(s3.uri("sink-" + format));

            assertThat(counter(fileSystem, "object_copy_requests") - copies)
                    .as(format)
                    .isZero();
            // each part file (or chunk object) staged by the magic committer, its upload completed by the job's commit
            assertThat(counter(fileSystem, "committer_magic_files_created") - staged)
                    .as(format)
                    .isEqualTo(zarr ? 6 : 3);
            assertThat(counter(fileSystem, "committer_commits_completed") - completed)
                    .as(format)
                    .isEqualTo(zarr ? 6 : 3);
            Path ours = s3.bucketDirectory().resolve("sink-" + format);
            Path theirs = s3.bucketDirectory().resolve("expand-" + format);
            List<String> objects = objects(theirs);
            assertThat(objects(ours)).as(format).isEqualTo(objects).contains("_SUCCESS", "_manifest.json");
            for (String name : objects) {
                if (name.startsWith("part-") || name.startsWith("c/")) {
                    byte[] written = Files.readAllBytes(ours.resolve(name));
                    byte[] expanded = Files.readAllBytes(theirs.resolve(name));
                    if (format.equals("parquet")) {
                        written = ParquetFooters.canonical(ours.resolve(name), written);
                        expanded = ParquetFooters.canonical(theirs.resolve(name), expanded);
                    }
                    assertThat(written).as(name).isEqualTo(expanded);
                }
            }
            List<String> inspect = new ArrayList<>(List.of("inspect", s3.uri("sink-" + format)));
            s3.sparkSettings().forEach((key, value) -> inspect.addAll(List.of("--conf", key + "=" + value)));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exitCode = TensorBroadcastCli.run(
                    inspect.toArray(String[]::new),
                    new PrintStream(out, true, UTF_8),
                    new PrintStream(err, true, UTF_8));
            assertThat(exitCode).as(err.toString(UTF_8)).isZero();
            assertThat(out.toString(UTF_8)).as(format).contains("complete").doesNotContain("incomplete");
        }
    }

    /** A counter of S3A's statistics of the bucket's one file system, which the driver and local tasks share. */
    private static long counter(FileSystem fileSystem, String name) {
        return IOStatisticsSupport.retrieveIOStatistics(fileSystem).counters().get(name);
    }

    /** The objects under a prefix, by their keys below it (S3Proxy's filesystem backend keeps them as files). */
    private static List<String> objects(Path prefix) throws IOException {
        try (Stream<Path> entries = Files.walk(prefix)) {
            return entries.filter(Files::isRegularFile)
                    .map(path -> prefix.relativize(path).toString())
                    .filter(name -> !name.startsWith("."))
                    .sorted()
                    .toList();
        }
    }
}
