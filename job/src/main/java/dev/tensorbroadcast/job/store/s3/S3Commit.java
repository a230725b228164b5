package dev.tensorbroadcast.job.store.s3;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.sink.PartFileNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BulkDelete;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.fs.s3a.commit.files.PendingSet;
import org.apache.hadoop.fs.s3a.commit.files.SinglePendingCommit;
import org.apache.hadoop.fs.s3a.commit.impl.CommitOperations;

/**
 * The commit on an object store ({@code s3a://}), where a rename is a copy of every byte and not atomic. Each task
 * writes its part file through hadoop-aws's S3A magic committer: the bytes go up as a multipart upload that the task
 * does not complete, so no reader sees the file; the task's commit hands the pending upload to the driver, and the
 * job's commit completes the uploads of exactly the committed attempts (one per partition) under the file's final
 * name, and aborts the rest. No byte is copied at commit. Local disks and HDFS keep Hadoop's {@code FileOutputCommitter},
 * whose renames are atomic and cheap there.
 *
 * <p>{@code --overwrite} on an object store moves nothing aside (that would be a copy): the old dataset stays in
 * place, whole and readable, while the tasks upload; the job's commit then takes its markers away ({@code _SUCCESS},
 * then the manifest), completes the uploads, which replace the old part files of the same names one by one, deletes
 * the old part files the new dataset does not have, and the driver writes the new manifest and {@code _SUCCESS}.
 */
final class S3Commit {
    /** The name of a job's staging directory under the output, before its job's UUID. */
    private static final String MAGIC_PREFIX = "__magic_job-";

    private S3Commit() {}

    /**
     * Sets {@code conf} up for S3A's magic committer ({@link MagicCommitter}, which {@code commit.DatasetCommitProtocol}
     * makes for {@link S3Store}), for the job {@code jobUuid} (which names its staging directory,
     * {@code __magic_job-<uuid>}, so two jobs never share one).
     */
    static void configure(Configuration conf, String jobUuid) {
        conf.set("fs.s3a.committer.name", "magic");
        conf.setBoolean("fs.s3a.committer.magic.enabled", true);
        conf.set("fs.s3a.committer.uuid", jobUuid);
        // a job that fails aborts its own uploads; others' uploads under the same output are theirs
        conf.setBoolean("fs.s3a.committer.abort.pending.uploads", true);
    }

    /**
     * Right before the job's commit: the old dataset's markers go, {@code _SUCCESS} first, so that while the part
     * files change under it no reader takes the output for a complete dataset.
     */
    static void takeMarkers(FileSystem fileSystem, Path output) throws IOException {
        fileSystem.delete(new Path(output, Manifest.SUCCESS_FILE_NAME), false);
        fileSystem.delete(new Path(output, Manifest.FILE_NAME), false);
    }

    /**
     * After the job's commit: deletes the part files an overwritten dataset had beyond the new one's {@code names}
     * (paths relative to the output: it had more partitions, or other {@code key=value/} directories, or was
     * partitioned and the new one is not, or the other way round), the {@code key=value/} directories that leaves
     * empty, and the job's staging directory, which S3A's cleanup empties but an S3 server that keeps objects as
     * files (S3Proxy's filesystem backend) may still list as an empty directory, and the staging directories of
     * killed jobs (the lock, held, says no other job writes here). Only part-file names under {@code key=value/}
     * names and staging directories are touched, which the output check found to be ours. Returns the files left directly under the output, by name, with their lengths: the listing this took,
     * less what it deleted, so that the check of the committed files needs no second listing of a thousand objects.
     */
    static Map<String, Long> afterCommit(FileSystem fileSystem, Path output, String jobUuid, Set<String> names)
            throws IOException {
        Path magic = new Path(output, MAGIC_PREFIX + jobUuid);
        fileSystem.delete(magic, true);
        // S3Proxy's filesystem backend keeps the directory marker S3A's job setup put there as a directory, which
        // it lists but S3A's delete does not find; a delete of the key itself removes it (elsewhere: no such key)
        deleteFiles(fileSystem, output, List.of(magic));
        Map<String, Long> files = new HashMap<>();
        deleteStale(fileSystem, output, "", names, files);
        return files;
    }

    /**
     * Deletes objects (files) under {@code base} as single requests, without what a file system's delete adds on
     * S3A: a probe of each path before, and after, a listing of its parent (to put a directory marker there if it
     * is empty), which S3Proxy's filesystem backend answers by reading every object in it.
     */
    static void deleteFiles(FileSystem fileSystem, Path base, List<Path> files) throws IOException {
        if (files.isEmpty()) {
            return;
        }
        try (BulkDelete delete = fileSystem.createBulkDelete(base)) {
            int page = Math.max(1, delete.pageSize());
            for (int from = 0; from < files.size(); from += page) {
                List<Map.Entry<Path, String>> failed =
                        delete.bulkDelete(files.subList(from, Math.min(files.size(), from + page)));
                if (!failed.isEmpty()) {
                    throw new IOException("cannot delete " + failed.get(0).getKey() + ": "
                            + failed.get(0).getValue());
                }
            }
        }
    }

    /**
     * Deletes what {@link #afterCommit} deletes under {@code directory} ({@code relative} to the output), putting
     * the files it leaves directly under the output into {@code top}; whether anything is left in it.
     */
    private static boolean deleteStale(
            FileSystem fileSystem, Path directory, String relative, Set<String> names, Map<String, Long> top)
            throws IOException {
        boolean left = false;
        List<Path> stale = new ArrayList<>();
        for (FileStatus status : fileSystem.listStatus(directory)) {
            String name = status.getPath().getName();
            if (status.isFile() && PartFileNames.isOurs(name) && !names.contains(relative + name)) {
                stale.add(status.getPath());
            } else if (status.isDirectory() && relative.isEmpty() && name.startsWith(MAGIC_PREFIX)) {
                // a killed job's staging (its uploads aborted by S3A's clean-up of this job): under our lock, no
                // other job of ours is writing here
                fileSystem.delete(status.getPath(), true);
                deleteFiles(fileSystem, directory, List.of(status.getPath()));
            } else if (status.isDirectory() && isPartitionName(name)) {
                if (!deleteStale(fileSystem, status.getPath(), relative + name + "/", names, new HashMap<>())) {
                    fileSystem.delete(status.getPath(), false);
                }
            } else {
                left = true;
                if (status.isFile() && relative.isEmpty()) {
                    top.put(name, status.getLen());
                }
            }
        }
        deleteFiles(fileSystem, directory, stale);
        // a new file of the dataset is left too: a directory of the new dataset is never deleted
        return left;
    }

    /**
     * After an overwrite's commit of an array: the old array's chunk objects the new one did not write (a smaller
     * grid, or chunks of the fill value now), which would otherwise read as the new array's values.
     */
    static void deleteStaleChunks(FileSystem fileSystem, Path output, Set<String> names) throws IOException {
        deleteStaleChunks(
                fileSystem, new Path(output, PartFileNames.CHUNK_DIRECTORY), PartFileNames.CHUNK_DIRECTORY, names);
    }

    private static void deleteStaleChunks(FileSystem fileSystem, Path path, String key, Set<String> names)
            throws IOException {
        if (!fileSystem.exists(path)) {
            return;
        }
        if (!fileSystem.getFileStatus(path).isDirectory()) {
            if (!names.contains(key)) {
                fileSystem.delete(path, false);
            }
            return;
        }
        FileStatus[] children;
        try {
            children = fileSystem.listStatus(path);
        } catch (java.io.FileNotFoundException e) {
            return;
        }
        for (FileStatus status : children) {
            deleteStaleChunks(
                    fileSystem, status.getPath(), key + "/" + status.getPath().getName(), names);
        }
    }

    /**
     * Completes those of {@code uploads} that are still pending, under {@code output}; returns the files (relative
     * to the output) it completed. An upload that cannot be completed (completed already, or aborted) is left out.
     */
    static Set<String> completeRecorded(S3AFileSystem fileSystem, Path output, PendingSet uploads) throws IOException {
        String prefix = fileSystem.pathToKey(output) + "/";
        CommitOperations operations = new CommitOperations(fileSystem);
        Set<String> completed = new HashSet<>();
        for (SinglePendingCommit upload : uploads.getCommits()) {
            try {
                operations.commitOrFail(upload);
            } catch (IOException notPending) {
                if (!fileSystem.exists(output)) {
                    // the store itself failed, not the upload
                    throw notPending;
                }
                continue;
            }
            String key = upload.getDestinationKey();
            completed.add(key.startsWith(prefix) ? key.substring(prefix.length()) : key);
        }
        return completed;
    }

    /** A {@code key=value} directory of a partitioned dataset. */
    private static boolean isPartitionName(String name) {
        return name.indexOf('=') > 0 && !name.startsWith("_") && !name.startsWith(".");
    }
}
