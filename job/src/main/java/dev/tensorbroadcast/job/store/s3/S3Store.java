package dev.tensorbroadcast.job.store.s3;

import dev.tensorbroadcast.job.store.Store;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.RemoteFileChangedException;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.fs.s3a.commit.files.PendingSet;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * S3 through hadoop-aws ({@code s3a://}), where a rename is a copy of every byte and not atomic: the tasks' files go
 * through S3A's magic committer ({@link MagicCommitter}, {@link S3Commit}), a small object is one PUT (whole or not
 * at all), and {@code --overwrite} replaces the old dataset in place at the commit. Our S3A settings:
 * {@link S3aDefaults}; what S3's refusals mean: {@link S3Failures}.
 */
public final class S3Store implements Store {
    private static final long serialVersionUID = 1L;
    /** Where S3A's magic committer stages a job's pending uploads ({@link S3Commit}). */
    /** Hadoop's create option for a write that fails when the file exists (S3A: {@code If-None-Match: *}). */
    private static final String CONDITIONAL_CREATE = "fs.option.create.conditional.overwrite";

    private static final Pattern MAGIC = Pattern.compile("__magic(_job-[0-9a-zA-Z-]+)?");

    @Override
    public Set<String> schemes() {
        return Set.of("s3a");
    }

    @Override
    public Configuration settings(Configuration conf) {
        return S3aDefaults.apply(conf);
    }

    @Override
    public void configureJob(Configuration job, String jobUuid) {
        S3Commit.configure(job, jobUuid);
    }

    @Override
    public Optional<OutputCommitter> committer(Path output, TaskAttemptContext context) throws IOException {
        return Optional.of(new MagicCommitter(output, context));
    }

    @Override
    public boolean setsAsideOnOverwrite() {
        // a move is a copy here: the old dataset stays where it is, see S3Commit
        return false;
    }

    /** An object appears whole when its upload ends, or not at all: no staged copy, no rename (a copy). */
    @Override
    public void publish(FileSystem fileSystem, Path directory, String name, byte[] bytes) throws IOException {
        try (OutputStream out = fileSystem.create(new Path(directory, name), false)) {
            out.write(bytes);
        }
    }

    /**
     * Creates {@code path} unless it exists: a look first, so a store that ignores the condition (S3Proxy) still
     * refuses a writer that comes second, then a write with {@code If-None-Match: *}, which a store that honours it
     * refuses with 412 when the key appeared meanwhile. Of two writers that both found nothing only one gets it where
     * the store decides the condition atomically, as AWS S3 does (docs/storage.md: what each S3 server guarantees).
     */
    @Override
    public boolean createExclusive(FileSystem fileSystem, Path path, byte[] bytes, Runnable staged) throws IOException {
        if (fileSystem.exists(path)) {
            return false;
        }
        return createIfAbsent(fileSystem, path, bytes);
    }

    /** The conditional write of {@link #createExclusive}, without the look before it: false on a 412. */
    static boolean createIfAbsent(FileSystem fileSystem, Path path, byte[] bytes) throws IOException {
        FSDataOutputStreamBuilder<?, ?> create = fileSystem.createFile(path);
        create.overwrite(false);
        create.recursive();
        create.opt(CONDITIONAL_CREATE, true);
        try (OutputStream out = create.build()) {
            out.write(bytes);
        } catch (IOException e) {
            if (isPreconditionFailed(e)) {
                return false;
            }
            throw e;
        }
        return true;
    }

    /**
     * Whether a failed write is the store's 412 for a key that exists: S3A raises it at close, where the upload
     * happens, as a {@code RemoteFileChangedException} or a {@code FileAlreadyExistsException} around the SDK's
     * exception with that status.
     */
    static boolean isPreconditionFailed(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof FileAlreadyExistsException
                    || cause instanceof RemoteFileChangedException
                    || (cause instanceof S3Exception s3 && s3.statusCode() == 412)) {
                return true;
            }
        }
        return false;
    }

    /** One request: S3A's delete would probe the file first and list the directory after. */
    @Override
    public void deleteFile(FileSystem fileSystem, Path directory, Path path) throws IOException {
        S3Commit.deleteFiles(fileSystem, directory, List.of(path));
    }

    @Override
    public void beforeCommit(FileSystem fileSystem, Path output, Optional<String> arrayMetadata) throws IOException {
        S3Commit.takeMarkers(fileSystem, output);
        if (arrayMetadata.isPresent()) {
            // an overwritten array stops reading as one before its chunks change under it
            fileSystem.delete(new Path(output, arrayMetadata.get()), false);
        }
    }

    @Override
    public Optional<Map<String, Long>> afterCommit(
            FileSystem fileSystem, Path output, String jobUuid, Set<String> names, boolean array) throws IOException {
        Map<String, Long> listed = S3Commit.afterCommit(fileSystem, output, jobUuid, names);
        if (array) {
            S3Commit.deleteStaleChunks(fileSystem, output, names);
        }
        return Optional.of(listed);
    }

    /**
     * Completes the recorded uploads ({@link MagicCommitter#record}) that are still pending: one that is not (it was
     * completed before the commit stopped, or aborted since) fails its completion and is left out, for the
     * record's check of the files to tell which.
     */
    @Override
    public Set<String> completeRecorded(FileSystem fileSystem, Path output, byte[] pending) throws IOException {
        return S3Commit.completeRecorded(
                (S3AFileSystem) fileSystem, output, PendingSet.serializer().fromBytes(pending));
    }

    @Override
    public boolean isStagingName(String name) {
        return MAGIC.matcher(name).matches();
    }

    @Override
    public String toString() {
        return "s3a";
    }

    /** {@code s3://}: the scheme pyarrow, polars and DuckDB know S3 by ({@code s3a} is Hadoop's). */
    @Override
    public String readerLocation(Path qualified) {
        return "s3" + qualified.toString().substring("s3a".length());
    }
}
