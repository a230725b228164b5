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
 * last task into the tasks' requests and the commit's; so is the CPU time this JVM and the S3 server's used. Both
 * writes run once at 50 partitions first (the server's JVM and this one's code warm for both), then REPS times each
 * at PARTITIONS, alternating which goes first.
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
        int reps = args.length > 2 ? Integer.parseInt(args[2]) : 2;
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
            AtomicReference<Snapshot> atLastTaskEnd = new AtomicReference<>();
            spark.sparkContext().addSparkListener(new SparkListener() {
                @Override
                public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
                    atLastTaskEnd.set(Snapshot.take(fs, s3.pid()));
                }
            });
            List<Write> writes = List.of(
                    new Write("ours (S3A magic committer)", output -> TensorBroadcast.builder().source(source)
                            .dialect(Dialect.NUMPY).shape(output.partitions() * 8L, 3)
                            .partitions(output.partitions()).output(s3.uri(output.key()))
                            .write(WriteSpec.builder().format(OutputFormat.PARQUET).build()).build().run(spark)),
                    new Write("Spark df.write.parquet (FileOutputCommitter)", output -> spark
                            .range(0, output.partitions() * 8L, 1, output.partitions()).write()
                            .parquet(s3.uri(output.key()))));
            // both writes once, small, first: the S3 server's JVM and this one's code paths are warm for both
            int warmUp = Math.min(partitions, 50);
            for (Write write : writes) {
                write.body().run(new Output("warm-up-" + writes.indexOf(write), warmUp));
            }
            System.out.printf(Locale.ROOT, "warmed up: both writes once at %d partitions%n", warmUp);
            for (int rep = 0; rep < reps; rep++) {
                // the order alternates, so that neither write always runs right after the other's load
                List<Write> order = rep % 2 == 0 ? writes : List.of(writes.get(1), writes.get(0));
                double[] commits = new double[2];
                for (Write write : order) {
                    Snapshot before = Snapshot.take(fs, s3.pid());
                    write.body().run(new Output("run-" + rep + "-" + writes.indexOf(write), partitions));
                    Snapshot after = Snapshot.take(fs, s3.pid());
                    commits[writes.indexOf(write)] = report(write.name() + ", run " + (rep + 1), partitions,
                            before, atLastTaskEnd.get(), after);
                }
                System.out.printf(Locale.ROOT, "run %d (%s first): commit ours %.2f s, Spark %.2f s: %.1fx%n%n",
                        rep + 1, rep % 2 == 0 ? "ours" : "Spark", commits[0], commits[1], commits[1] / commits[0]);
            }
            spark.stop();
        }
    }

    private record Output(String key, int partitions) {}

    private interface Body {
        void run(Output output) throws Exception;
    }

    private record Write(String name, Body body) {}

    /**
     * At one moment: the S3A counters, the time, and the CPU this JVM and the S3 server's process have used (clock
     * ticks of /proc, 1/100 s).
     */
    private record Snapshot(long nanos, Map<String, Long> counters, double ownCpu, double serverCpu) {
        static Snapshot take(FileSystem fs, long serverPid) {
            return new Snapshot(System.nanoTime(), S3CommitBench.counters(fs), cpuSeconds(ProcessHandle.current().pid()),
                    cpuSeconds(serverPid));
        }
    }

    /** utime + stime of a process, from /proc/PID/stat (its fields after the command's closing parenthesis). */
    private static double cpuSeconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
        } catch (java.io.IOException e) {
            return Double.NaN;
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

    /** Prints a write's times, CPU and requests; returns its commit's seconds. */
    private static double report(String name, int partitions, Snapshot before, Snapshot atLastTask, Snapshot after) {
        double commit = (after.nanos() - atLastTask.nanos()) / 1e9;
        System.out.printf(Locale.ROOT, "%-54s job %7.1f s   commit %7.2f s%n", name,
                (after.nanos() - before.nanos()) / 1e9, commit);
        System.out.printf(Locale.ROOT, "  CPU in the commit: this JVM %.2f s, the S3 server %.2f s%n",
                after.ownCpu() - atLastTask.ownCpu(), after.serverCpu() - atLastTask.serverCpu());
        System.out.printf(Locale.ROOT, "  %-30s %10s %10s %14s%n", "S3 requests", "tasks", "commit",
                "commit/partition");
        for (String counter : COUNTERS) {
            long tasks = atLastTask.counters().get(counter) - before.counters().get(counter);
            long commits = after.counters().get(counter) - atLastTask.counters().get(counter);
            if (tasks != 0 || commits != 0) {
                System.out.printf(Locale.ROOT, "  %-30s %10d %10d %14.2f%n", counter, tasks, commits,
                        commits / (double) partitions);
            }
        }
        return commit;
    }
}
