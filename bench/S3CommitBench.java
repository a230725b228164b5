import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.WriteSpec;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.base.S3aDefaults;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import dev.tensorbroadcast.planner.Dialect;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSupport;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;

/**
 * bench/s3-commit.sh's program: one S3 server (S3Proxy), one Spark (local[2]), and two writes of PARTITIONS files
 * each to it: ours (expand, S3A's magic committer) and Spark's own df.write.parquet (FileOutputCommitter, which
 * renames every file twice, a copy each on S3). "commit" is the time from the end of the last task to the write's
 * return: the job's commit (and for ours the manifest and _SUCCESS). The S3 requests of each write are counted by
 * S3A's own statistics (the file system instance the driver and the local tasks share), split at the end of the
 * last task into the tasks' requests and the commit's.
 */
public final class S3CommitBench {
    /** S3A's counters of requests sent, by kind; audit_request_execution counts every request. */
    private static final List<String> COUNTERS = List.of("audit_request_execution", "object_put_request",
            "multipart_upload_part_put", "object_multipart_initiated", "multipart_upload_completed",
            "object_metadata_request", "object_list_request", "object_continue_list_request",
            "action_http_get_request", "object_copy_requests", "object_delete_request", "object_bulk_delete_request",
            "object_multipart_list", "object_multipart_aborted");

    public static void main(String[] args) throws Exception {
        int partitions = Integer.parseInt(args[0]);
        String source = args[1];
        Path directory = Files.createTempDirectory("s3-commit-bench-");
        try (S3Server s3 = S3Server.start(SparkHome.locate(), directory)) {
            SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("s3-commit-bench")
                    .config("spark.ui.enabled", "false");
            s3.sparkSettings().forEach(builder::config);
            SparkSession spark = builder.getOrCreate();
            // the JVM's one S3A file system for the bucket, made as ours makes it (with our S3A defaults): the driver's
            // and the local tasks' requests all go through it
            FileSystem fs = FileSystem.get(URI.create(s3.uri("")),
                    S3aDefaults.apply(spark.sparkContext().hadoopConfiguration()));
            AtomicLong lastTaskEnd = new AtomicLong();
            AtomicReference<Map<String, Long>> atLastTaskEnd = new AtomicReference<>();
            spark.sparkContext().addSparkListener(new SparkListener() {
                @Override
                public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
                    lastTaskEnd.set(System.nanoTime());
                    atLastTaskEnd.set(counters(fs));
                }
            });

            Map<String, Long> before = counters(fs);
            long start = System.nanoTime();
            TensorBroadcast.builder().source(source).dialect(Dialect.NUMPY).shape(partitions * 8L, 3)
                    .partitions(partitions).output(s3.uri("ours"))
                    .write(WriteSpec.builder().format(OutputFormat.PARQUET).build()).build().run(spark);
            long end = System.nanoTime();
            report("ours (S3A magic committer)", partitions, start, lastTaskEnd.get(), end, before,
                    atLastTaskEnd.get(), counters(fs));

            before = counters(fs);
            start = System.nanoTime();
            spark.range(0, partitions * 8L, 1, partitions).write().parquet(s3.uri("spark"));
            end = System.nanoTime();
            report("Spark df.write.parquet (FileOutputCommitter)", partitions, start, lastTaskEnd.get(), end, before,
                    atLastTaskEnd.get(), counters(fs));
            spark.stop();
        }
    }

    private static Map<String, Long> counters(FileSystem fs) {
        IOStatistics statistics = IOStatisticsSupport.retrieveIOStatistics(fs);
        Map<String, Long> counters = new TreeMap<>();
        for (String name : COUNTERS) {
            counters.put(name, statistics.counters().getOrDefault(name, 0L));
        }
        return counters;
    }

    private static void report(String name, int partitions, long start, long lastTaskEnd, long end,
            Map<String, Long> before, Map<String, Long> atLastTask, Map<String, Long> after) {
        System.out.printf(Locale.ROOT, "%-46s job %7.1f s   commit %7.2f s%n", name, (end - start) / 1e9,
                (end - lastTaskEnd) / 1e9);
        System.out.printf(Locale.ROOT, "  %-30s %10s %10s %14s%n", "S3 requests", "tasks", "commit",
                "commit/partition");
        for (String counter : COUNTERS) {
            long tasks = atLastTask.get(counter) - before.get(counter);
            long commit = after.get(counter) - atLastTask.get(counter);
            if (tasks != 0 || commit != 0) {
                System.out.printf(Locale.ROOT, "  %-30s %10d %10d %14.2f%n", counter, tasks, commit,
                        commit / (double) partitions);
            }
        }
    }
}
