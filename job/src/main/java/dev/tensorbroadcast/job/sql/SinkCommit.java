package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.commit.DatasetCommitProtocol;
import dev.tensorbroadcast.job.store.Store;
import dev.tensorbroadcast.job.store.Stores;
import java.io.IOException;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.internal.io.FileCommitProtocol.TaskCommitMessage;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The sink's commit, which is {@code expand}'s: Spark's commit protocol over the committer the output's store gives
 * ({@link DatasetCommitProtocol}: Hadoop's {@code FileOutputCommitter} on local disks and HDFS, S3A's magic committer
 * on {@code s3a://}, whose uploads the job's commit completes, no byte copied), set up on the driver as
 * {@code pipeline.DatasetJob} sets it up, with the store's settings and its steps before and after the job's commit.
 * The tasks' side is {@link PartWriters}.
 */
final class SinkCommit {
    private static final AtomicInteger JOB_NUMBERS = new AtomicInteger();

    private final Path output;
    private final String jobUuid;
    private final Store store;
    private final Job job;
    private final DatasetCommitProtocol committer;
    private final String jobTrackerId;
    private final int jobNumber;

    private SinkCommit(Path output, String jobUuid, Store store, Job job, DatasetCommitProtocol committer) {
        this.output = requireNonNull(output, "output is null");
        this.jobUuid = requireNonNull(jobUuid, "jobUuid is null");
        this.store = requireNonNull(store, "store is null");
        this.job = requireNonNull(job, "job is null");
        this.committer = requireNonNull(committer, "committer is null");
        @SuppressWarnings("JavaUtilDate") // Hadoop's job tracker id, spelled as Spark's SparkHadoopWriterUtils does
        String tracker = new SimpleDateFormat("yyyyMMddHHmmss", Locale.ROOT).format(new Date());
        this.jobTrackerId = tracker;
        this.jobNumber = JOB_NUMBERS.getAndIncrement();
    }

    /**
     * Sets up the job writing {@code output}: Hadoop's own {@code _SUCCESS} off (ours follows the manifest), every
     * store's settings in the job's configuration, the output's store's committer.
     */
    static SinkCommit setUp(Path output, Configuration sparkConf) throws IOException {
        String jobUuid = UUID.randomUUID().toString();
        Store store = Stores.forPath(output);
        Configuration conf = new Configuration(Stores.settings(sparkConf));
        conf.setBoolean("mapreduce.fileoutputcommitter.marksuccessfuljobs", false);
        store.configureJob(conf, jobUuid);
        Job job = Job.getInstance(conf);
        FileOutputFormat.setOutputPath(job, output);
        DatasetCommitProtocol committer = (DatasetCommitProtocol) FileCommitProtocol.instantiate(
                DatasetCommitProtocol.class.getName(), jobUuid, output.toString(), false);
        committer.setupJob(job);
        return new SinkCommit(output, jobUuid, store, job, committer);
    }

    /** What the tasks take: the job's configuration (its committer's settings in it), and the protocol. */
    Configuration configuration() {
        return job.getConfiguration();
    }

    DatasetCommitProtocol committer() {
        return committer;
    }

    Store store() {
        return store;
    }

    String jobTrackerId() {
        return jobTrackerId;
    }

    int jobNumber() {
        return jobNumber;
    }

    /**
     * Commits the tasks' {@code messages} (one per committed task), whose files are {@code names} relative to the
     * output ({@code arrayMetadata}: an array's metadata object, written after): the committer puts them in place
     * (a rename, or S3's completed uploads), then the store cleans its staging up.
     */
    void commit(List<TaskCommitMessage> messages, Set<String> names, Optional<String> arrayMetadata)
            throws IOException {
        FileSystem fileSystem = output.getFileSystem(configuration());
        committer.commitJob(
                job,
                CollectionConverters.asScala(messages).toSeq(),
                staged -> store.beforeCommit(fileSystem, output, arrayMetadata));
        store.afterCommit(fileSystem, output, jobUuid, names, arrayMetadata.isPresent());
    }

    /** Aborts the job: the committer removes its staging (a store's pending uploads are aborted). */
    void abort() {
        committer.abortJob(job);
    }
}
