package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.job.base.JobFailedException;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.base.ToolVersion;
import dev.tensorbroadcast.job.commit.CommitRecord;
import dev.tensorbroadcast.job.commit.CommitWindow;
import dev.tensorbroadcast.job.commit.DatasetCommitProtocol;
import dev.tensorbroadcast.job.commit.FaultPoint;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.manifest.SourceRead;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.job.sink.OutputPartitions;
import dev.tensorbroadcast.job.sink.PartFileNames;
import dev.tensorbroadcast.job.source.JobSource;
import dev.tensorbroadcast.job.source.KeptSpec;
import dev.tensorbroadcast.job.source.TaskSource;
import dev.tensorbroadcast.job.store.Store;
import dev.tensorbroadcast.job.store.Stores;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.io.IOException;
import java.text.SimpleDateFormat;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSError;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.internal.io.FileCommitProtocol.TaskCommitMessage;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.LongAccumulator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The driver's side of writing one dataset: ships a small source once as a broadcast variable (a large dataset is read
 * by the tasks, each its slice; see {@link JobSource}), runs one task per planned
 * partition, commits with Spark's {@link FileCommitProtocol} (aborting on any failure, which leaves no
 * {@code _SUCCESS} and no manifest), then writes {@code _manifest.json} and {@code _SUCCESS}.
 */
public final class DatasetJob {
    private static final AtomicInteger JOB_NUMBERS = new AtomicInteger();

    private final JobSource source;
    private final DatasetSpec spec;
    private final Path output;
    private final String description;
    private final Map<String, String> request;
    private final List<Manifest.ManifestInput> inputs;

    DatasetJob(
            JobSource source,
            DatasetSpec spec,
            Path output,
            String description,
            Map<String, String> request,
            List<Manifest.ManifestInput> inputs) {
        this.source = requireNonNull(source, "source is null");
        this.spec = requireNonNull(spec, "spec is null");
        this.output = requireNonNull(output, "output is null");
        this.description = requireNonNull(description, "description is null");
        this.request = Map.copyOf(request);
        this.inputs = List.copyOf(inputs);
    }

    /** A job writing the broadcast of {@code source} by {@code program} into {@code output}. */
    public static DatasetJob of(
            JobSource source,
            dev.tensorbroadcast.planner.CopyProgram program,
            PartitionPlan partitions,
            FileOptions files,
            Optional<KeptSpec> kept,
            Path output,
            String description,
            Map<String, String> request,
            List<Manifest.ManifestInput> inputs) {
        return of(source, program, partitions, files, kept, Optional.empty(), output, description, request, inputs);
    }

    /** As {@link #of}, each file under the {@code key=value} directories {@code directories} gives its rows. */
    public static DatasetJob of(
            JobSource source,
            dev.tensorbroadcast.planner.CopyProgram program,
            PartitionPlan partitions,
            FileOptions files,
            Optional<KeptSpec> kept,
            Optional<OutputPartitions> directories,
            Path output,
            String description,
            Map<String, String> request,
            List<Manifest.ManifestInput> inputs) {
        return new DatasetJob(
                source,
                new DatasetSpec(partitions, program, files, kept.orElse(null), directories.orElse(null)),
                output,
                description,
                request,
                inputs);
    }

    public Manifest run(SparkSession spark, Progress progress) {
        return run(JobEngine.spark(spark), progress);
    }

    /** Writes the dataset with tasks on {@code engine}. */
    public Manifest run(JobEngine engine, Progress progress) {
        String jobUuid = UUID.randomUUID().toString();
        Store store = Stores.forPath(output);
        Job job = hadoopJob(store, engine.hadoopConfiguration(), jobUuid);
        @SuppressWarnings("JavaUtilDate") // Hadoop's job tracker id, spelled as Spark's SparkHadoopWriterUtils does
        String jobTrackerId = new SimpleDateFormat("yyyyMMddHHmmss", Locale.ROOT).format(new Date());
        int jobNumber = JOB_NUMBERS.getAndIncrement();
        DatasetCommitProtocol committer = (DatasetCommitProtocol) FileCommitProtocol.instantiate(
                DatasetCommitProtocol.class.getName(), jobUuid, output.toString(), false);
        committer.tasksInDriver(engine.inThisJvm());
        int partitionCount = Math.toIntExact(spec.partitions().partitionCount());
        JobRun.Tracking tracking = new JobRun.Tracking(
                progress,
                "tensor-broadcast bytes of values written",
                partitionCount,
                spec.partitions().bytes());
        // an array's objects go where they live, where the store writes them in place (see PartitionTask.writeArray)
        String arrayInPlace = spec.array().isPresent() && store.writesArraysInPlace() ? output.toString() : null;
        // the files the commit's own listing of the output left there, where the store listed it (see checkCommitted)
        AtomicReference<Map<String, Long>> listedAfterCommit = new AtomicReference<>();
        // the commit's window, open from its first change of the output to its _SUCCESS (see CommitWindow)
        AtomicReference<CommitWindow> window = new AtomicReference<>();
        // once the commit record is written, the commit only goes forward: nothing is aborted (see CommitRecord)
        AtomicBoolean recorded = new AtomicBoolean();
        AtomicReference<Published> publishing = new AtomicReference<>();
        try {
            List<WrittenFile> written = JobRun.tracked(engine, description, tracking)
                    .onFailure(() -> {
                        if (recorded.get()) {
                            return;
                        }
                        committer.abortJob(job);
                        if (arrayInPlace != null) {
                            deleteChunks(job.getConfiguration());
                        }
                    })
                    .run("Cannot write '" + output + "'", run -> {
                        // in the run: a directory that cannot be set up (say, under a file) is a failed job, aborted
                        committer.setupJob(job);
                        TaskSource taskSource = run.hold(source.open(run), TaskSource::release);
                        LongAccumulator sourceBytesRead = run.accumulator("tensor-broadcast source bytes read");
                        PartitionTask task = new PartitionTask(
                                taskSource,
                                spec,
                                committer,
                                jobTrackerId,
                                jobNumber,
                                run.ship(job.getConfiguration()),
                                run.values(),
                                sourceBytesRead,
                                store,
                                arrayInPlace);
                        List<WrittenFile> done = run.tasks(partitionCount, task);
                        // an array's task reports each of its objects with the one message of its commit
                        List<TaskCommitMessage> messages = new ArrayList<>(done.stream()
                                .collect(Collectors.toMap(
                                        WrittenFile::partition,
                                        WrittenFile::commitMessage,
                                        (first, same) -> first,
                                        TreeMap::new))
                                .values());
                        FileSystem fileSystem = output.getFileSystem(job.getConfiguration());
                        Configuration conf = job.getConfiguration();
                        Published published = published(done);
                        publishing.set(published);
                        window.set(CommitWindow.enter());
                        FaultPoint.COMMIT_START.reach(conf);
                        Set<String> names = done.stream().map(WrittenFile::name).collect(Collectors.toSet());
                        committer.commitJob(
                                job, CollectionConverters.asScala(messages).toSeq(), staged -> {
                                    if (staged.isPresent() && !store.setsAsideOnOverwrite()) {
                                        published
                                                .record(jobUuid, staged.get().record())
                                                .write(store, fileSystem, output);
                                        recorded.set(true);
                                        FaultPoint.COMMIT_RECORDED.reach(conf);
                                    }
                                    store.beforeCommit(
                                            fileSystem, output, spec.array().map(ArrayFileFormat::metadataName));
                                    FaultPoint.COMMIT_MARKERS_TAKEN.reach(conf);
                                });
                        FaultPoint.COMMIT_FILES_COMMITTED.reach(conf);
                        listedAfterCommit.set(store.afterCommit(
                                        fileSystem,
                                        output,
                                        jobUuid,
                                        names,
                                        spec.array().isPresent())
                                .orElse(null));
                        FaultPoint.COMMIT_CLEANED.reach(conf);
                        return done;
                    });
            List<WrittenFile> files = new ArrayList<>(written);
            files.sort(Comparator.comparingLong(WrittenFile::partition));
            Published published = publishing.get();
            Configuration conf = job.getConfiguration();
            try {
                FileSystem fileSystem = output.getFileSystem(conf);
                checkCommitted(fileSystem, files, listedAfterCommit.get());
                if (published.arrayMetadata() != null) {
                    store.publish(
                            fileSystem, output, spec.array().orElseThrow().metadataName(), published.arrayMetadata());
                }
                store.publish(fileSystem, output, Manifest.FILE_NAME, published.manifestBytes());
                FaultPoint.COMMIT_MANIFEST_WRITTEN.reach(conf);
                store.publish(fileSystem, output, Manifest.SUCCESS_FILE_NAME, new byte[0]);
                FaultPoint.COMMIT_SUCCESS_WRITTEN.reach(conf);
                if (recorded.get()) {
                    CommitRecord.delete(store, fileSystem, output);
                }
                FaultPoint.COMMIT_DONE.reach(conf);
                return published.manifest();
            } catch (IOException | FSError e) {
                // the files are committed but no _SUCCESS follows: inspect reports the dataset incomplete; a full
                // local disk surfaces as Hadoop's FSError, an Error, which would otherwise end the process with a
                // stack trace
                throw new JobFailedException(
                        "Cannot finish dataset '" + output + "': " + Reasons.of(e)
                                + (recorded.get() ? stoppedCommit() : ""),
                        e);
            }
        } catch (JobFailedException failure) {
            if (recorded.get() && !failure.getMessage().contains(CommitRecord.FILE_NAME)) {
                throw new JobFailedException(failure.getMessage() + stoppedCommit(), failure);
            }
            throw failure;
        } finally {
            CommitWindow open = window.get();
            if (open != null) {
                open.close();
            }
        }
    }

    /** What a commit stopped after its record leaves, and what finishes it. */
    private String stoppedCommit() {
        return "; the commit stopped after it began replacing the old dataset: its record " + CommitRecord.FILE_NAME
                + " is there, and a rerun with --overwrite finishes it first";
    }

    /**
     * What the commit of the tasks' files {@code done} publishes after them: the manifest, and an array's metadata.
     * Made before the commit begins, so that a commit record can hold them.
     */
    private Published published(List<WrittenFile> done) {
        List<WrittenFile> files = new ArrayList<>(done);
        files.sort(Comparator.comparingLong(WrittenFile::partition));
        byte[] metadata = null;
        if (spec.array().isPresent()) {
            files = arrayRows(files);
            metadata = spec.array().orElseThrow().metadata(spec.layout(source.dtype()));
            files.add(arrayMetadataFile(metadata, files));
        }
        Manifest manifest = manifest(files);
        Map<String, Long> sizes = new HashMap<>();
        done.forEach(file -> sizes.put(file.name(), file.bytes()));
        return new Published(
                manifest,
                ManifestJson.toBytes(manifest),
                spec.array().map(ArrayFileFormat::metadataName),
                metadata,
                sizes);
    }

    /** What a commit publishes after the tasks' files ({@link #published}). */
    @SuppressWarnings("ArrayRecordComponent") // bytes written whole to the store, never compared
    private record Published(
            Manifest manifest,
            byte[] manifestBytes,
            Optional<String> arrayMetadataName,
            byte[] arrayMetadata,
            Map<String, Long> files) {
        CommitRecord record(String jobUuid, byte[] pending) {
            return new CommitRecord(jobUuid, files, arrayMetadataName, manifestBytes, arrayMetadata, pending);
        }
    }

    /**
     * The Hadoop job the committer works with. Hadoop's own {@code _SUCCESS} is off (S3A's committers honour the
     * same setting): ours follows the manifest. Every store's settings are in it (the tasks may read from any), and
     * the output's store sets the job up (its committer, its file system).
     */
    private Job hadoopJob(Store store, Configuration sparkConf, String jobUuid) {
        Configuration conf = new Configuration(Stores.settings(sparkConf));
        conf.setBoolean("mapreduce.fileoutputcommitter.marksuccessfuljobs", false);
        store.configureJob(conf, jobUuid);
        try {
            Job job = Job.getInstance(conf);
            FileOutputFormat.setOutputPath(job, output);
            return job;
        } catch (IOException e) {
            throw new JobFailedException("Cannot set up the output job for '" + output + "': " + Reasons.of(e), e);
        }
    }

    /**
     * An array's metadata, written whole once every chunk is committed, so that a reader never finds a half-written
     * array presented as complete; listed in the manifest after the chunks, holding no rows.
     */
    private WrittenFile arrayMetadataFile(byte[] bytes, List<WrittenFile> files) {
        ArrayFileFormat format = spec.array().orElseThrow();
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(bytes);
        WrittenFile last = files.isEmpty() ? null : files.get(files.size() - 1);
        long covered = last == null ? 0 : last.firstRow() + last.rows();
        return new WrittenFile(
                format.metadataName(),
                Math.max(0, spec.partitions().partitionCount() - 1),
                covered,
                spec.partitions().rows() - covered,
                bytes.length,
                String.format(Locale.ROOT, "%08x", crc.getValue()),
                last == null ? "driver" : last.executorId(),
                last == null ? "localhost" : last.host(),
                0,
                0,
                0,
                last == null ? new TaskCommitMessage(null) : last.commitMessage());
    }

    /**
     * A failed job's chunk objects written in place: without {@code zarr.json} and the manifest they never read as
     * an array, and they go (a --overwrite's old array then comes back, see SetAside).
     */
    private void deleteChunks(Configuration conf) {
        try {
            output.getFileSystem(conf).delete(new Path(output, PartFileNames.CHUNK_DIRECTORY), true);
        } catch (IOException e) {
            // the job's failure is what the user is told; a later --overwrite deletes what is left (our names)
        }
    }

    /**
     * An array's objects with the rows the manifest lists on them: a partition's rows on its first object, as the
     * task said, and the rows of partitions that wrote no object (every chunk the fill value) on the next object
     * listed (the metadata, after the last), so that the listed rows still run from 0 to the end without a gap.
     */
    private static List<WrittenFile> arrayRows(List<WrittenFile> files) {
        List<WrittenFile> listed = new ArrayList<>();
        long next = 0;
        for (WrittenFile file : files) {
            long end = file.rows() > 0 ? file.firstRow() + file.rows() : next;
            listed.add(new WrittenFile(
                    file.name(),
                    file.partition(),
                    next,
                    end - next,
                    file.bytes(),
                    file.crc32c(),
                    file.executorId(),
                    file.host(),
                    file.sourceFirstRow(),
                    file.sourceRows(),
                    file.sourceBytesRead(),
                    file.commitMessage()));
            next = end;
        }
        return listed;
    }

    /**
     * Every task's file is in place after the commit, with the size the task wrote, and nothing else is. The files
     * directly under the output are {@code listed} where the commit listed them already (an object store's, after
     * the completions: a second listing of a thousand objects costs S3Proxy about as long as a hundred completions).
     */
    private void checkCommitted(FileSystem fileSystem, List<WrittenFile> files, Map<String, Long> listed)
            throws IOException {
        Map<String, Long> expected = new HashMap<>();
        for (WrittenFile file : files) {
            expected.put(file.name(), file.bytes());
        }
        Map<String, Long> found = new HashMap<>();
        if (spec.array().isPresent()) {
            Path chunks = new Path(output, PartFileNames.CHUNK_DIRECTORY);
            if (fileSystem.exists(chunks)) {
                FileStatus top = fileSystem.getFileStatus(chunks);
                if (top.isDirectory()) {
                    listChunks(fileSystem, chunks, PartFileNames.CHUNK_DIRECTORY + "/", found);
                } else {
                    // a scalar's one chunk is the object c itself
                    found.put(PartFileNames.CHUNK_DIRECTORY, top.getLen());
                }
            }
        }
        if (spec.directories() == null && listed != null) {
            listed.forEach((name, length) -> {
                if (name.startsWith(Manifest.PART_PREFIX)) {
                    found.put(name, length);
                }
            });
        } else if (spec.directories() == null) {
            for (FileStatus status : fileSystem.listStatus(output)) {
                if (status.getPath().getName().startsWith(Manifest.PART_PREFIX)) {
                    found.put(status.getPath().getName(), status.getLen());
                }
            }
        } else {
            listPartitioned(fileSystem, output, "", found);
        }
        if (!found.equals(expected)) {
            throw new IOException("the committed files " + found + " are not the files the tasks wrote " + expected);
        }
    }

    /**
     * The objects under an array's chunk directory, by their keys. Through {@code listStatus}, not
     * {@code listFiles}: Hadoop's local file system makes each listed file's {@code LocatedFileStatus} read its
     * permissions by running {@code ls} in a child process, which made checking a thousand chunks cost seconds.
     */
    private static void listChunks(FileSystem fileSystem, Path directory, String relative, Map<String, Long> found)
            throws IOException {
        FileStatus[] children;
        try {
            children = fileSystem.listStatus(directory);
        } catch (java.io.FileNotFoundException e) {
            // an object store's prefix whose objects were deleted (an overwritten array's stale chunks), which
            // the listing above it may still show as a directory
            return;
        }
        for (FileStatus status : children) {
            String key = relative + status.getPath().getName();
            if (status.isDirectory()) {
                listChunks(fileSystem, status.getPath(), key + "/", found);
            } else {
                found.put(key, status.getLen());
            }
        }
    }

    /**
     * The part files under the {@code key=value} directories, by their paths relative to the output; not under
     * {@code _} or {@code .} names (the old dataset set aside, Spark's staging).
     */
    private static void listPartitioned(FileSystem fileSystem, Path directory, String relative, Map<String, Long> found)
            throws IOException {
        for (FileStatus status : fileSystem.listStatus(directory)) {
            String name = status.getPath().getName();
            if (name.startsWith("_") || name.startsWith(".")) {
                continue;
            }
            if (status.isDirectory()) {
                listPartitioned(fileSystem, status.getPath(), relative + name + "/", found);
            } else if (name.startsWith(Manifest.PART_PREFIX)) {
                found.put(relative + name, status.getLen());
            }
        }
    }

    private Manifest manifest(List<WrittenFile> files) {
        PartitionPlan partitions = spec.partitions();
        List<DatasetFile> entries = files.stream()
                .map(file -> new DatasetFile(
                        file.name(),
                        file.partition(),
                        file.firstRow(),
                        file.rows(),
                        file.bytes(),
                        file.crc32c(),
                        file.executorId(),
                        file.host(),
                        new SourceRead(file.sourceFirstRow(), file.sourceRows(), file.sourceBytesRead())))
                .toList();
        return new Manifest(
                Manifest.FORMAT_VERSION,
                ToolVersion.version(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
                request,
                inputs,
                ManifestShapes.list(partitions.output()),
                source.dtype().typeName(),
                partitions.elements(),
                partitions.bytes(),
                partitions.rowDims(),
                ManifestShapes.list(partitions.rowShape()),
                partitions.rows(),
                spec.files().format().name(),
                spec.files().codecName(),
                partitions.partitionCount(),
                entries,
                spec.kept() == null
                        ? List.of()
                        : spec.kept().columns().stream()
                                .map(column -> new Manifest.KeptColumnEntry(column.name(), column.typeName()))
                                .toList(),
                spec.files().settings().rowLayout().layoutName());
    }
}
