import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.WriteSpec;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import dev.tensorbroadcast.planner.Dialect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;

/**
 * bench/s3-commit.sh's program: one S3 server (S3Proxy), one Spark (local[2]), and two writes of PARTITIONS files
 * each to it: ours (expand, S3A's magic committer) and Spark's own df.write.parquet (FileOutputCommitter, which
 * renames every file twice, a copy each on S3). "commit" is the time from the end of the last task to the write's
 * return: the job's commit (and for ours the manifest and _SUCCESS).
 */
public final class S3CommitBench {
    public static void main(String[] args) throws Exception {
        int partitions = Integer.parseInt(args[0]);
        String source = args[1];
        Path directory = Files.createTempDirectory("s3-commit-bench-");
        try (S3Server s3 = S3Server.start(SparkHome.locate(), directory)) {
            SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("s3-commit-bench")
                    .config("spark.ui.enabled", "false");
            s3.sparkSettings().forEach(builder::config);
            SparkSession spark = builder.getOrCreate();
            AtomicLong lastTaskEnd = new AtomicLong();
            spark.sparkContext().addSparkListener(new SparkListener() {
                @Override
                public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
                    lastTaskEnd.set(System.nanoTime());
                }
            });

            long start = System.nanoTime();
            TensorBroadcast.builder().source(source).dialect(Dialect.NUMPY).shape(partitions * 8L, 3)
                    .partitions(partitions).output(s3.uri("ours"))
                    .write(WriteSpec.builder().format(OutputFormat.PARQUET).build()).build().run(spark);
            long end = System.nanoTime();
            report("ours (S3A magic committer)", start, lastTaskEnd.get(), end);

            start = System.nanoTime();
            spark.range(0, partitions * 8L, 1, partitions).write().parquet(s3.uri("spark"));
            end = System.nanoTime();
            report("Spark df.write.parquet (FileOutputCommitter)", start, lastTaskEnd.get(), end);
            spark.stop();
        }
    }

    private static void report(String name, long start, long lastTaskEnd, long end) {
        System.out.printf(Locale.ROOT, "%-46s job %7.1f s   commit %7.2f s%n", name, (end - start) / 1e9,
                (end - lastTaskEnd) / 1e9);
    }
}
