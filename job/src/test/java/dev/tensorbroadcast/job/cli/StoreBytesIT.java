package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.LocalSpark;
import dev.tensorbroadcast.job.pipeline.SharedCluster;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.junit.WithLocalCluster;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same writes on a local disk, on HDFS and on S3 (S3Proxy) leave the same bytes: Arrow, Parquet and Zarr, each
 * without a codec and with zstd, and a reduce to an Arrow dataset, the requests of {@link WriteBytesTest} of those
 * names; a reduce to {@code .npy} too, on the local disk only (a .npy off it is refused).
 * The local writes run on the embedded default (no Spark in this JVM yet), as WriteBytesTest's do; those to HDFS and
 * S3 on a local Spark, as every write off the local disk does. Every file of each output, copied back, is the local
 * write's byte for byte, and the local write's files have WriteBytesTest's CRCs (the bytes of 706c3f7, zstd pages
 * aside). The manifests agree field by field but for what names the run rather than the data: its time
 * ({@code created}) and, per file, the executor and host that wrote it.
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
class StoreBytesIT {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** This class's directory on the shared cluster's HDFS. */
    private static final String HOME = "/StoreBytesIT";

    private static final Set<String> CASES = Set.of(
            "arrow-none",
            "parquet-none",
            "arrow-zstd",
            "parquet-zstd",
            "zarr-none",
            "zarr-zstd",
            "reduce.npy",
            "reduce-arrow");
    /** A .npy is written on the driver's local disk only: off it, a reduce writes a dataset (reduce-arrow). */
    private static final String LOCAL_ONLY = "reduce.npy";

    @TempDir
    static Path dir;

    @Test
    void localDiskHdfsAndS3HoldTheSameBytes(ProcessCluster cluster, S3Server s3) throws IOException {
        WriteBytesTest.floats(dir.resolve("floats.npy"));
        List<WriteBytesTest.Case> writes = WriteBytesTest.cases().stream()
                .filter(write -> CASES.contains(write.name()))
                .toList();
        assertThat(writes).hasSameSizeAs(CASES);

        for (WriteBytesTest.Case write : writes) {
            CliRun run = run(write, dir.resolve("local").resolve(write.name()).toString(), "--verbose");
            assertThat(run.err()).as(write.name()).contains("running the job in this process without Spark");
        }

        URI hdfs = cluster.hdfsUri().orElseThrow();
        SparkSession spark = LocalSpark.start();
        try {
            Configuration conf = spark.sparkContext().hadoopConfiguration();
            s3.hadoopSettings().forEach(conf::set);
            for (WriteBytesTest.Case write : remote(writes)) {
                String onHdfs = hdfs + HOME + "/" + write.name();
                run(write, onHdfs);
                copyDown(onHdfs, dir.resolve("hdfs").resolve(write.name()), conf);
                String onS3 = s3.uri("StoreBytesIT/" + write.name());
                run(write, onS3);
                copyDown(onS3, dir.resolve("s3").resolve(write.name()), conf);
            }
        } finally {
            spark.stop();
        }

        for (WriteBytesTest.Case write : writes) {
            Path local = dir.resolve("local").resolve(write.name());
            assertThat(WriteBytesTest.crcs(local))
                    .as(write.name())
                    .isEqualTo(WriteBytesTest.EXPECTED.get(write.name()));
            if (write.name().equals(LOCAL_ONLY)) {
                continue;
            }
            for (String store : List.of("hdfs", "s3")) {
                assertSameOutput(dir.resolve(store).resolve(write.name()), local, write.name() + " on " + store);
            }
        }
    }

    private static List<WriteBytesTest.Case> remote(List<WriteBytesTest.Case> writes) {
        return writes.stream().filter(write -> !write.name().equals(LOCAL_ONLY)).toList();
    }

    /** WriteBytesTest's command line for {@code write}, to {@code output}. */
    private static CliRun run(WriteBytesTest.Case write, String output, String... more) {
        List<String> args = write.commandLine(dir, output);
        args.addAll(List.of(more));
        CliRun run = CliRun.of(args.toArray(String[]::new));
        assertThat(run.exitCode())
                .as(write.name() + " to " + output + ": " + run.err())
                .isZero();
        return run;
    }

    private static void copyDown(String location, Path local, Configuration conf) throws IOException {
        Files.createDirectories(local.getParent());
        org.apache.hadoop.fs.Path remote = new org.apache.hadoop.fs.Path(location);
        try (FileSystem fileSystem = FileSystem.newInstance(remote.toUri(), conf)) {
            fileSystem.copyToLocalFile(false, remote, new org.apache.hadoop.fs.Path(local.toString()), true);
        }
    }

    /** The same files by name; each byte for byte, but a manifest, which is compared field by field. */
    private static void assertSameOutput(Path actual, Path expected, String what) throws IOException {
        if (Files.isRegularFile(expected)) {
            assertThat(actual).as(what).isRegularFile();
            assertThat(Files.readAllBytes(actual)).as(what).isEqualTo(Files.readAllBytes(expected));
            return;
        }
        Map<String, byte[]> found = DriverJobsTest.files(actual);
        Map<String, byte[]> wanted = DriverJobsTest.files(expected);
        assertThat(found.keySet()).as(what).isEqualTo(wanted.keySet());
        assertThat(wanted).as(what).containsKey(Manifest.FILE_NAME);
        for (String name : wanted.keySet()) {
            if (name.equals(Manifest.FILE_NAME)) {
                assertThat(withoutRun(found.get(name))).as(what + ": " + name).isEqualTo(withoutRun(wanted.get(name)));
            } else {
                assertThat(found.get(name)).as(what + ": " + name).isEqualTo(wanted.get(name));
            }
        }
    }

    /** A manifest without what names the run rather than the data: its time, and who wrote each file where. */
    private static JsonNode withoutRun(byte[] manifest) throws IOException {
        ObjectNode json = (ObjectNode) MAPPER.readTree(manifest);
        assertThat(json.remove("created")).isNotNull();
        JsonNode files = json.get("files");
        assertThat(files).isNotEmpty();
        for (JsonNode file : files) {
            assertThat(((ObjectNode) file).remove("executor_id")).isNotNull();
            assertThat(((ObjectNode) file).remove("host")).isNotNull();
        }
        return json;
    }
}
