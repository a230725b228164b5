package dev.tensorbroadcast.job.store;

import dev.tensorbroadcast.job.manifest.Manifest;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * One kind of store an output can be on, chosen once from the output's URI ({@link Stores#forPath}): everything the
 * pipeline does differently on a local disk, on HDFS (any Hadoop file system with an atomic rename) or on S3
 * ({@code s3a://}, where a rename is a copy). The pipeline asks the store and never tests a scheme itself
 * ({@code StoreBranchesTest} fails on one). The defaults are those of a Hadoop file system whose rename is atomic and
 * cheap, which is {@link HadoopStore}; a store overrides what it does otherwise.
 *
 * <p>A store is shipped to the tasks with the job (it is {@link Serializable}, and holds no state of its own). Adding
 * one is a class implementing this and one registry entry ({@link Stores}); docs/architecture.md, "A new store".
 */
public interface Store extends Serializable {
    /** The URI schemes this store serves ({@code s3a}); a path with none of the registered ones is {@link HadoopStore}'s. */
    Set<String> schemes();

    /**
     * {@code conf} with the settings this store's file systems need where the user left them to Hadoop's defaults
     * (a copy if any is set): applied before a file system of the store is made, and to every job's configuration.
     */
    default Configuration settings(Configuration conf) {
        return conf;
    }

    /** Sets up the Hadoop job writing a dataset to this store (job {@code jobUuid}): its committer, its file system. */
    default void configureJob(Configuration job, String jobUuid) {}

    /**
     * The committer of a task or job writing {@code output}, when it is not the one Hadoop's output format picks
     * (a {@code FileOutputCommitter}, renames). One that is not a {@code FileOutputCommitter} gives each attempt its
     * work path; a {@link PendingCommitter} hands its tasks' work to the job's commit in their commit messages.
     */
    default Optional<OutputCommitter> committer(Path output, TaskAttemptContext context) throws IOException {
        return Optional.empty();
    }

    /** Whether the tasks' array objects (Zarr chunks) are written at their keys rather than staged and renamed. */
    default boolean writesArraysInPlace() {
        return false;
    }

    /** Whether a job writing here may run in this process without Spark: the output is on this machine's disks. */
    default boolean onThisMachine() {
        return false;
    }

    /**
     * Whether {@code --overwrite} moves the old dataset aside before the job and deletes it once the new one is
     * complete (where a rename is cheap); otherwise the old dataset stays in place and the commit replaces it
     * ({@link #beforeCommit}, {@link #afterCommit}).
     */
    default boolean setsAsideOnOverwrite() {
        return true;
    }

    /** A new object (a chunk, a part file) at {@code path}, which must not exist. */
    default OutputStream createObject(FileSystem fileSystem, Path path) throws IOException {
        return fileSystem.create(path, false);
    }

    /** An object at its final key, written in place by every attempt; only where {@link #writesArraysInPlace}. */
    default OutputStream openInPlace(FileSystem fileSystem, Path path) throws IOException {
        throw new UnsupportedOperationException("Cannot write " + path + " in place: its store stages objects");
    }

    /** The local file {@code path} is, when a task may write it through a file channel; else empty. */
    default Optional<java.nio.file.Path> localFile(FileSystem fileSystem, Path path) {
        return Optional.empty();
    }

    /**
     * Writes one small object whole ({@code _manifest.json}, {@code zarr.json}, {@code _SUCCESS},
     * {@code datasets.json}) as {@code name} in {@code directory}, so that no reader ever sees part of it: here
     * written under another name ({@link Manifest#STAGED_SUFFIX}) and renamed, so that a full disk leaves no half
     * object that reads as ours. An empty object cannot be seen in part, and is created at its name.
     */
    default void publish(FileSystem fileSystem, Path directory, String name, byte[] bytes) throws IOException {
        Path target = new Path(directory, name);
        if (bytes.length == 0) {
            write(fileSystem, target, bytes);
            return;
        }
        Path staged = new Path(directory, name + Manifest.STAGED_SUFFIX);
        write(fileSystem, staged, bytes);
        if (!fileSystem.rename(staged, target)) {
            throw new IOException("cannot rename " + staged + " to " + name);
        }
    }

    /**
     * Creates {@code path} holding {@code bytes} only if nothing is there, atomically; false when something is. A store
     * that first writes the bytes whole under a name of its own ({@link #stagedCopy}) runs {@code staged} between
     * that write and putting them at {@code path} (where a test halts the driver on purpose); another never runs it.
     */
    default boolean createExclusive(FileSystem fileSystem, Path path, byte[] bytes, Runnable staged)
            throws IOException {
        try (OutputStream out = fileSystem.create(path, false)) {
            out.write(bytes);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        }
    }

    /** Deletes the file {@code path} in {@code directory}, with as few requests as the store allows. */
    default void deleteFile(FileSystem fileSystem, Path directory, Path path) throws IOException {
        fileSystem.delete(path, false);
    }

    /**
     * Right before the job's commit of a dataset at {@code output} (an array's, when {@code arrayMetadata} names its
     * metadata object): where the commit replaces an old dataset in place, what keeps a reader from taking it for
     * complete meanwhile goes.
     */
    default void beforeCommit(FileSystem fileSystem, Path output, Optional<String> arrayMetadata) throws IOException {}

    /**
     * Right after the job's commit of job {@code jobUuid}, whose tasks wrote {@code names} (relative to the output;
     * {@code array}: an array's objects): what an overwrite in place left of the old dataset goes, and the job's
     * staging. Returns the files then directly under the output, by name, with their lengths, when the store listed
     * them anyway; else empty, and the check of the committed files lists them itself.
     */
    default Optional<Map<String, Long>> afterCommit(
            FileSystem fileSystem, Path output, String jobUuid, Set<String> names, boolean array) throws IOException {
        return Optional.empty();
    }

    /**
     * Completes, in a later process, the pending work a stopped job commit recorded
     * ({@link PendingCommitter#record}, kept in {@code commit.CommitRecord}) under {@code output}; work completed
     * before, or gone, is left as it is. Returns the files (relative to the output) it completed now.
     */
    default Set<String> completeRecorded(FileSystem fileSystem, Path output, byte[] pending) throws IOException {
        return Set.of();
    }

    /**
     * The bytes a job could write at {@code path} ({@code location} as typed), where the store can tell; empty where
     * a job cannot rely on it (a quota, a bucket).
     */
    default OptionalLong usableBytes(String location, Path path) {
        return OptionalLong.empty();
    }

    /**
     * Refuses an output in {@code directory} (an existing one) that this process cannot write into, said as a refusal
     * of {@code location} before any job starts; where the store can tell without writing.
     */
    default void requireWritable(String location, Path directory) {}

    /** Whether {@code path}, whose status is {@code status}, is a symbolic link. */
    default boolean isSymlink(FileSystem fileSystem, Path path, FileStatus status) {
        return status.isSymlink();
    }

    /** The location {@code qualified} really names, for comparing outputs with inputs (links resolved where any). */
    default String resolved(Path qualified) {
        return qualified.toString();
    }

    /** Whether the {@link #resolved} location {@code resolved} is a file under which nothing can be made. */
    default boolean isFile(String resolved) {
        return false;
    }

    /** {@code qualified} as Python's readers (pyarrow, polars, DuckDB) take it, for the line that says how to read. */
    default String readerLocation(Path qualified) {
        return qualified.toString();
    }

    /** Whether {@code name}, at the top of an output, is where this store's committer stages a job's work. */
    default boolean isStagingName(String name) {
        return false;
    }

    /**
     * The name under which a store stages a copy of the file {@code name} before it puts it in place exclusively
     * ({@link #createExclusive}): {@code name}, a dot, {@code unique} in 16 hex digits, {@link Manifest#STAGED_SUFFIX}.
     */
    static String stagedCopy(String name, long unique) {
        return name + "." + String.format("%016x", unique) + Manifest.STAGED_SUFFIX;
    }

    /** Whether {@code name} is a {@link #stagedCopy} of the file {@code of}: what a creator killed meanwhile left. */
    static boolean isStagedCopy(String name, String of) {
        int hex = of.length() + 1;
        return name.length() == hex + 16 + Manifest.STAGED_SUFFIX.length()
                && name.startsWith(of + ".")
                && name.endsWith(Manifest.STAGED_SUFFIX)
                && name.substring(hex, hex + 16).chars().allMatch(c -> Character.digit(c, 16) >= 0);
    }

    /** As a new object ({@link #createObject}): a store that creates objects its own way publishes them so too. */
    private void write(FileSystem fileSystem, Path path, byte[] bytes) throws IOException {
        try (OutputStream out = createObject(fileSystem, path)) {
            out.write(bytes);
        }
    }
}
