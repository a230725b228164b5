package dev.tensorbroadcast.job.cli;

import static dev.tensorbroadcast.job.cli.OutputIsInputTest.checksums;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.pipeline.SparkPerClass;
import dev.tensorbroadcast.job.store.s3.S3aDefaults;
import dev.tensorbroadcast.localcluster.junit.WithS3Server;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.spark.SparkContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands on {@code s3a://} against a real S3 server (S3Proxy, one per class): in-process on the class's Spark,
 * whose Hadoop settings point S3A at the server, as {@code --conf spark.hadoop.fs.s3a.*} would. What the server
 * keeps is checked on its disk too ({@link S3Server#bucketDirectory()}: one file per visible object).
 */
@WithS3Server
class S3StorageIT {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    private Path source;

    @BeforeAll
    static void pointS3AtTheServer(S3Server s3) {
        Configuration conf = SPARK.session().sparkContext().hadoopConfiguration();
        s3.hadoopSettings().forEach(conf::set);
    }

    @BeforeEach
    void writeSource() throws Exception {
        source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
    }

    @AfterEach
    void stopFailing() {
        failPartitionZero(false);
    }

    private static void failPartitionZero(boolean fail) {
        SparkContext context = SPARK.session().sparkContext();
        context.setLocalProperty("tensorbroadcast.test.failPartition", fail ? "0" : null);
        context.setLocalProperty("tensorbroadcast.test.failAttempts", fail ? "all" : null);
    }

    private static CliRun expand(String input, String output, String shape, String... more) {
        List<String> args = new ArrayList<>(
                List.of("expand", "--input", input, "--dialect", "numpy", "--shape", shape, "--output", output));
        args.addAll(List.of(more));
        if (!args.contains("--partitions")) {
            args.addAll(List.of("--partitions", "4"));
        }
        return CliRun.of(args.toArray(String[]::new));
    }

    /** The {@code --conf} arguments of a command that starts no Spark (inspect, verify, export). */
    private static String[] withConf(S3Server s3, String... arguments) {
        List<String> args = new ArrayList<>(List.of(arguments));
        s3.sparkSettings().forEach((key, value) -> args.addAll(List.of("--conf", key + "=" + value)));
        return args.toArray(String[]::new);
    }

    /** The visible objects under {@code key}, by name: what a listing reader of the prefix finds. */
    private static List<String> objects(S3Server s3, String key) throws IOException {
        Path prefix = s3.bucketDirectory().resolve(key);
        try (Stream<Path> entries = Files.list(prefix)) {
            // S3Proxy's filesystem backend lists an emptied prefix (the committer's staging) as an empty directory
            return entries.filter(Files::isRegularFile)
                    .map(path -> path.getFileName().toString())
                    .sorted()
                    .toList();
        }
    }

    /** The int32 values of an exported [rows,8] .npy of the test source broadcast: row r is the source row. */
    private static void assertBroadcastRows(Path npy, int rows) throws IOException {
        byte[] bytes = Files.readAllBytes(npy);
        ByteBuffer data = ByteBuffer.wrap(bytes, bytes.length - rows * 8 * 4, rows * 8 * 4)
                .order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < 8; c++) {
                assertThat(data.getInt()).as("row %d column %d", r, c).isEqualTo(NpyFiles.value(c));
            }
        }
    }

    @Test
    void expandWritesArrowAndParquetToS3WhichInspectVerifyAndExportReadBack(S3Server s3) throws Exception {
        for (String format : List.of("arrow", "parquet")) {
            String output = s3.uri("expand-" + format);

            CliRun run = expand(source.toString(), output, "64,8", "--format", format);

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(objects(s3, "expand-" + format))
                    .containsExactly(
                            "_SUCCESS",
                            "_manifest.json",
                            "part-00000." + format,
                            "part-00001." + format,
                            "part-00002." + format,
                            "part-00003." + format);
            CliRun inspect = CliRun.of(withConf(s3, "inspect", output));
            assertThat(inspect.exitCode()).as(inspect.err()).isZero();
            assertThat(inspect.out()).contains("complete");
            CliRun verify = CliRun.of(withConf(s3, "verify", output, "--source", source.toString()));
            assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
            Path npy = dir.resolve(format + ".npy");
            CliRun export = CliRun.of(withConf(s3, "export", output, "--npy", npy.toString()));
            assertThat(export.exitCode()).as(export.err()).isZero();
            assertBroadcastRows(npy, 64);
        }
    }

    @Test
    void expandReadsItsInputFromS3(S3Server s3) throws Exception {
        FileSystem fileSystem = new org.apache.hadoop.fs.Path(s3.uri("in/row.npy"))
                .getFileSystem(SPARK.session().sparkContext().hadoopConfiguration());
        fileSystem.copyFromLocalFile(
                new org.apache.hadoop.fs.Path(source.toUri()), new org.apache.hadoop.fs.Path(s3.uri("in/row.npy")));
        Path output = dir.resolve("from-s3");

        CliRun run = expand(s3.uri("in/row.npy"), output.toString(), "16,8");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(CliRun.of("verify", output.toString(), "--source", source.toString())
                        .exitCode())
                .isZero();
        assertThat(CliRun.of(
                                "export",
                                output.toString(),
                                "--npy",
                                dir.resolve("x.npy").toString())
                        .exitCode())
                .isZero();
        assertBroadcastRows(dir.resolve("x.npy"), 16);
    }

    @Test
    void reduceAndBroadcastTensorsWriteToS3(S3Server s3) throws Exception {
        Path grad = NpyFiles.int32(dir.resolve("grad.npy"), new long[] {4, 2, 3});
        CliRun reduce = CliRun.of(
                "reduce",
                "--input",
                grad.toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "[1,2,3]",
                "--shape",
                "[4,2,3]",
                "--output",
                s3.uri("reduced"));
        assertThat(reduce.exitCode()).as(reduce.err()).isZero();
        assertThat(objects(s3, "reduced")).contains("_SUCCESS", "_manifest.json", "part-00000.arrow");
        Path sums = dir.resolve("sums.npy");
        assertThat(CliRun.of(withConf(s3, "export", s3.uri("reduced"), "--npy", sums.toString()))
                        .exitCode())
                .isZero();
        byte[] bytes = Files.readAllBytes(sums);
        ByteBuffer data = ByteBuffer.wrap(bytes, bytes.length - 6 * 4, 6 * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int c = 0; c < 6; c++) {
            int sum = 0;
            for (int r = 0; r < 4; r++) {
                sum += NpyFiles.value(6L * r + c);
            }
            assertThat(data.getInt()).isEqualTo(sum);
        }
        // the same sums as a Zarr array on S3, through the array's commit there
        CliRun zarr = CliRun.of(
                "reduce",
                "--input",
                grad.toString(),
                "--dialect",
                "numpy",
                "--input-shape",
                "[1,2,3]",
                "--shape",
                "[4,2,3]",
                "--output",
                s3.uri("reduced.zarr"),
                "--format",
                "zarr");
        assertThat(zarr.exitCode()).as(zarr.err()).isZero();
        assertThat(objects(s3, "reduced.zarr")).contains("_SUCCESS", "_manifest.json", "zarr.json");
        Path zarrSums = dir.resolve("zarr-sums.npy");
        assertThat(CliRun.of(withConf(s3, "export", s3.uri("reduced.zarr"), "--npy", zarrSums.toString()))
                        .exitCode())
                .isZero();
        assertThat(Files.readAllBytes(zarrSums)).isEqualTo(bytes);

        Path column = NpyFiles.int32(dir.resolve("column.npy"), new long[] {3, 1});
        CliRun pair = CliRun.of(
                "broadcast-tensors",
                "--input",
                source.toString(),
                "--input",
                column.toString(),
                "--dialect",
                "paddle",
                "--output",
                s3.uri("pair"));
        assertThat(pair.exitCode()).as(pair.err()).isZero();
        for (String index : List.of("0", "1")) {
            CliRun inspect = CliRun.of(withConf(s3, "inspect", s3.uri("pair/" + index)));
            assertThat(inspect.exitCode()).as(inspect.err()).isZero();
        }
    }

    /**
     * Overwrite moves nothing aside on S3: the old dataset stays in place while the new one's tasks upload, and
     * a job that fails before its commit leaves every old object as it was, byte for byte, and no new one.
     */
    @Test
    void aZarrArrayGoesToS3AndAnOverwriteLeavesNoChunkOfTheOldOne(S3Server s3) throws Exception {
        String output = s3.uri("array.zarr");
        Path chunks = s3.bucketDirectory().resolve("array.zarr").resolve("c");

        CliRun run = expand(
                source.toString(), output, "64,8", "--format", "zarr", "--chunks", "16,8", "--compression", "zstd");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(objects(s3, "array.zarr")).containsExactly("_SUCCESS", "_manifest.json", "zarr.json");
        try (Stream<Path> rows = Files.list(chunks)) {
            assertThat(rows.map(path -> path.getFileName().toString()).sorted()).containsExactly("0", "1", "2", "3");
        }
        CliRun verify = CliRun.of(withConf(s3, "verify", output, "--source", source.toString()));
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out()).contains("checksums match", "512 values match the source");
        Path npy = dir.resolve("zarr.npy");
        CliRun export = CliRun.of(withConf(s3, "export", output, "--npy", npy.toString()));
        assertThat(export.exitCode()).as(export.err()).isZero();
        assertBroadcastRows(npy, 64);

        // a smaller array over it: the chunk rows it does not have go, so none of the old values stays readable
        CliRun replaced = expand(
                source.toString(),
                output,
                "32,8",
                "--format",
                "zarr",
                "--chunks",
                "16,8",
                "--overwrite",
                "--partitions",
                "2");
        assertThat(replaced.exitCode()).as(replaced.err()).isZero();
        try (Stream<Path> rows = Files.list(chunks)) {
            assertThat(rows.filter(path -> Files.isRegularFile(path.resolve("0")))
                            .map(path -> path.getFileName().toString())
                            .sorted())
                    .containsExactly("0", "1");
        }
        CliRun again = CliRun.of(withConf(s3, "verify", output, "--source", source.toString()));
        assertThat(again.exitCode()).as(again.out() + again.err()).isZero();
        assertThat(again.out()).contains("256 values match the source");
    }

    @Test
    void aFailedOverwriteLeavesTheOldDatasetOnS3AsItWas(S3Server s3) throws Exception {
        String output = s3.uri("overwritten");
        assertThat(expand(source.toString(), output, "64,8").exitCode()).isZero();
        Map<String, String> before = checksums(s3.bucketDirectory().resolve("overwritten"));

        failPartitionZero(true);
        CliRun failed = expand(source.toString(), output, "32,8", "--overwrite", "--format", "parquet");
        failPartitionZero(false);

        assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
        assertThat(failed.err()).contains("injected failure in partition 0, attempt ");
        assertThat(objects(s3, "overwritten"))
                .doesNotContain(OutputLock.FILE_NAME)
                .noneMatch(name -> name.endsWith(".parquet"));
        assertThat(checksums(s3.bucketDirectory().resolve("overwritten"))).containsAllEntriesOf(before);
        assertThat(CliRun.of(withConf(s3, "verify", output, "--source", source.toString()))
                        .exitCode())
                .isZero();

        // and one that succeeds replaces it whole, fewer partitions included
        CliRun replaced = expand(source.toString(), output, "32,8", "--overwrite", "--partitions", "2");
        assertThat(replaced.exitCode()).as(replaced.err()).isZero();
        assertThat(objects(s3, "overwritten"))
                .containsExactly("_SUCCESS", "_manifest.json", "part-00000.arrow", "part-00001.arrow");
        assertThat(CliRun.of(withConf(s3, "verify", output, "--source", source.toString()))
                        .exitCode())
                .isZero();
    }

    /** Every request S3A has sent through {@code fileSystem} (its audit counts each one). */
    private static long requests(FileSystem fileSystem) {
        return IOStatisticsSupport.retrieveIOStatistics(fileSystem).counters().get("audit_request_execution");
    }

    /**
     * The commit on S3 costs one request per partition (completing its upload) and a task two (starting the upload,
     * its one part): no per-task setup, probe, .pending or .pendingset object, no read or delete of them. Counted
     * by S3A's statistics of the bucket's one file system, which the driver and the local tasks share; the S3
     * server's objects are checked too.
     */
    @Test
    void eachPartitionCostsThreeS3Requests(S3Server s3) throws Exception {
        Configuration conf = SPARK.session().sparkContext().hadoopConfiguration();
        // a file system of this JVM made as ours makes them (our S3A settings), not by another test's own calls
        FileSystem.closeAll();
        FileSystem fileSystem = FileSystem.get(URI.create(s3.uri("")), S3aDefaults.apply(conf));
        long start = requests(fileSystem);
        assertThat(expand(source.toString(), s3.uri("requests-4"), "32,8", "--partitions", "4")
                        .exitCode())
                .isZero();
        long four = requests(fileSystem) - start;
        start = requests(fileSystem);
        CliRun twelve = expand(source.toString(), s3.uri("requests-12"), "96,8", "--partitions", "12");
        long more = requests(fileSystem) - start - four;

        assertThat(twelve.exitCode()).as(twelve.err()).isZero();
        assertThat(more)
                .as("requests of 8 more partitions (4 partitions: %d)", four)
                .isLessThanOrEqualTo(3 * 8);
        assertThat(objects(s3, "requests-12")).hasSize(14).contains("_SUCCESS", "_manifest.json", "part-00011.arrow");
        // nor an empty directory of the job's (S3Proxy lists one as a prefix, which inspect calls stray)
        try (Stream<Path> entries = Files.list(s3.bucketDirectory().resolve("requests-12"))) {
            assertThat(entries.filter(Files::isDirectory)).isEmpty();
        }
        assertThat(CliRun.of(withConf(s3, "verify", s3.uri("requests-12"), "--source", source.toString()))
                        .exitCode())
                .isZero();
    }

    /**
     * A file system made before ours (by the application, without our S3A settings) keeps its tasks' pending
     * uploads as {@code .pending} objects, not in memory: the tasks' commit reads them there, as that file system
     * wrote them, whatever the job's own settings say.
     */
    @Test
    void aFileSystemMadeWithoutOurSettingsCommitsToo(S3Server s3) throws Exception {
        Configuration conf = SPARK.session().sparkContext().hadoopConfiguration();
        FileSystem.closeAll();
        try {
            FileSystem theirs = FileSystem.get(URI.create(s3.uri("")), conf);
            assertThat(theirs.getConf().get("fs.s3a.committer.magic.track.commits.in.memory.enabled"))
                    .isNull();

            CliRun run = expand(source.toString(), s3.uri("made-before"), "32,8", "--format", "parquet");

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(objects(s3, "made-before"))
                    .containsExactly(
                            "_SUCCESS",
                            "_manifest.json",
                            "part-00000.parquet",
                            "part-00001.parquet",
                            "part-00002.parquet",
                            "part-00003.parquet");
            assertThat(CliRun.of(withConf(s3, "verify", s3.uri("made-before"), "--source", source.toString()))
                            .exitCode())
                    .isZero();
        } finally {
            // the next test's file system is made with our settings again
            FileSystem.closeAll();
        }
    }

    /** The subdirectories (prefixes) under {@code key} the S3 server holds objects in. */
    private static List<String> prefixes(S3Server s3, String key) throws IOException {
        try (Stream<Path> entries = Files.list(s3.bucketDirectory().resolve(key))) {
            return entries.filter(Files::isDirectory)
                    .filter(path -> {
                        try (Stream<Path> inside = Files.walk(path)) {
                            return inside.anyMatch(Files::isRegularFile);
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .map(path -> path.getFileName().toString())
                    .sorted()
                    .toList();
        }
    }

    /**
     * {@code --partition-by} on S3: the files under {@code key=value/} prefixes through the same magic commit, read
     * back by verify; an overwrite without it leaves no old {@code key=value/} file, and one with it no old top-level
     * part file.
     */
    @Test
    void partitionByWritesKeyValuePrefixesAndOverwriteReplacesThem(S3Server s3) throws Exception {
        List<org.apache.spark.sql.Row> rows = new ArrayList<>();
        for (int r = 0; r < 20; r++) {
            float[] features = new float[8];
            for (int e = 0; e < 8; e++) {
                features[e] = r + e / 8f;
            }
            rows.add(org.apache.spark.sql.RowFactory.create((long) r, "d" + r / 10, features));
        }
        var schema = new org.apache.spark.sql.types.StructType()
                .add("user_id", org.apache.spark.sql.types.DataTypes.LongType)
                .add("day", org.apache.spark.sql.types.DataTypes.StringType)
                .add(
                        "features",
                        org.apache.spark.sql.types.DataTypes.createArrayType(
                                org.apache.spark.sql.types.DataTypes.FloatType, false));
        Path table = dir.resolve("table");
        SPARK.session()
                .createDataFrame(rows, schema)
                .repartition(1)
                .write()
                .partitionBy("day")
                .parquet(table.toString());
        String output = s3.uri("partitioned");
        List<String> args = List.of(
                "expand",
                "--input",
                table.toString(),
                "--column",
                "features",
                "--row-shape",
                "[1,8]",
                "--dialect",
                "pytorch",
                "--shape",
                "[-1,2,8]",
                "--format",
                "parquet",
                "--partitions",
                "2",
                "--output",
                output);

        CliRun run = CliRun.of(
                Stream.concat(args.stream(), Stream.of("--partition-by", "day")).toArray(String[]::new));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(objects(s3, "partitioned")).containsExactly("_SUCCESS", "_manifest.json");
        assertThat(prefixes(s3, "partitioned")).containsExactly("day=d0", "day=d1");
        assertThat(objects(s3, "partitioned/day=d0")).containsExactly("part-00000.parquet");
        CliRun verify = CliRun.of(withConf(s3, "verify", output));
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();

        CliRun flat =
                CliRun.of(Stream.concat(args.stream(), Stream.of("--overwrite")).toArray(String[]::new));
        assertThat(flat.exitCode()).as(flat.err()).isZero();
        assertThat(prefixes(s3, "partitioned")).isEmpty();
        assertThat(objects(s3, "partitioned"))
                .containsExactly("_SUCCESS", "_manifest.json", "part-00000.parquet", "part-00001.parquet");

        CliRun back = CliRun.of(Stream.concat(args.stream(), Stream.of("--partition-by", "day", "--overwrite"))
                .toArray(String[]::new));
        assertThat(back.exitCode()).as(back.err()).isZero();
        assertThat(objects(s3, "partitioned")).containsExactly("_SUCCESS", "_manifest.json");
        assertThat(prefixes(s3, "partitioned")).containsExactly("day=d0", "day=d1");
        verify = CliRun.of(withConf(s3, "verify", output));
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
    }

    @Test
    void aBucketThatDoesNotExistIsOneLineBeforeSparkRuns(S3Server s3) {
        CliRun run = expand(source.toString(), "s3a://no-such-bucket/out", "64,8");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot write to 's3a://no-such-bucket/out': its bucket does not exist (the S3"
                        + " server answered NoSuchBucket)\n");
        CliRun inspect = CliRun.of(withConf(s3, "inspect", "s3a://no-such-bucket/out"));
        assertThat(inspect.exitCode()).isEqualTo(2);
        assertThat(inspect.err())
                .isEqualTo("Cannot inspect s3a://no-such-bucket/out: its bucket does not exist (the"
                        + " S3 server answered NoSuchBucket)\n");
    }

    /** Re-expanding a dataset on S3 into itself is refused before anything is read or written, as on disk. */
    @Test
    void reExpandingADatasetIntoItselfOnS3IsRefused(S3Server s3) throws Exception {
        String dataset = s3.uri("self");
        assertThat(expand(source.toString(), dataset, "64,8", "--format", "parquet")
                        .exitCode())
                .isZero();
        Map<String, String> before = checksums(s3.bucketDirectory().resolve("self"));

        for (String output : List.of(dataset, dataset + "/inside")) {
            CliRun run = expand(dataset, output, "64,8", "--overwrite");

            assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
            String relation = output.equals(dataset) ? "is" : "lies inside";
            String where = output.equals(dataset) ? "both " + dataset : output + " inside " + dataset;
            assertThat(run.err())
                    .isEqualTo("Cannot write to '" + output + "': it " + relation + " the input '"
                            + dataset + "' (" + where
                            + "), and a job must not write where it reads; write to a path outside"
                            + " every input, then move the result where you want it\n");
            assertThat(checksums(s3.bucketDirectory().resolve("self"))).isEqualTo(before);
        }
        assertThat(CliRun.of(withConf(s3, "verify", dataset, "--source", source.toString()))
                        .exitCode())
                .isZero();
    }
}
