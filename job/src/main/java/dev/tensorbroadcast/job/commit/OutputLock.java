package dev.tensorbroadcast.job.commit;

import dev.tensorbroadcast.job.base.JobFailedException;
import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.store.Store;
import dev.tensorbroadcast.planner.Param;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A job's ownership of its output directory for the whole of its life: a file created exclusively in the directory
 * before anything there is deleted or written, removed after {@code _SUCCESS} (or after a failed job's abort). A second
 * writer finds it and is refused, naming the owner. It is never seen half made: where a create shows a file before its
 * bytes are in (HDFS), the store stages it and renames it into place ({@link Store#createExclusive}). A lock left by a killed driver on this host, whose process is
 * gone, is taken over; one from another host is left to the user, as its owner cannot be asked.
 */
public final class OutputLock implements AutoCloseable {
    public static final String FILE_NAME = "_tensor-broadcast.lock";

    private final Store store;
    private final FileSystem fileSystem;
    private final Path lock;
    /** Whether the job made the output directory, which it then removes again if nothing came of the job. */
    private final boolean created;

    private OutputLock(Store store, FileSystem fileSystem, Path lock, boolean created) {
        this.store = store;
        this.fileSystem = fileSystem;
        this.lock = lock;
        this.created = created;
    }

    static OutputLock acquire(String location, Store store, FileSystem fileSystem, Path directory) {
        Path lock = new Path(directory, FILE_NAME);
        try {
            boolean created = !fileSystem.exists(directory);
            fileSystem.mkdirs(directory);
            for (int attempt = 0; ; attempt++) {
                if (store.createExclusive(
                        fileSystem,
                        lock,
                        (self() + "\n").getBytes(StandardCharsets.UTF_8),
                        () -> FaultPoint.LOCK_STAGED.reach(fileSystem.getConf()))) {
                    FaultPoint.LOCK_CREATED.reach(fileSystem.getConf());
                    return new OutputLock(store, fileSystem, lock, created);
                }
                Optional<String> owner = owner(fileSystem, lock);
                if (attempt == 0 && owner.isPresent() && isGoneFromThisHost(owner.get())) {
                    fileSystem.delete(lock, false);
                    continue;
                }
                throw new OutputException("Cannot write to '" + location + "': another tensor-broadcast job is"
                        + " writing it (" + owner.orElse("owner unknown") + "); wait for it to finish, or if that"
                        + " job is gone, delete " + lock + " and rerun with " + Param.OVERWRITE.given("true", null));
            }
        } catch (IOException e) {
            throw new OutputException("Cannot write to '" + location + "': cannot lock it: " + Reasons.of(e));
        }
    }

    /**
     * Whether {@code name} is the lock, or a copy of it a store staged to put it in place whole ({@link
     * Store#stagedCopy}), which a driver killed meanwhile leaves: ours, never part of a dataset, and deleted by the
     * next job that takes the lock.
     */
    public static boolean isLockName(String name) {
        return name.equals(FILE_NAME) || Store.isStagedCopy(name, FILE_NAME);
    }

    /** {@code process 1234 on host h since 2026-11-24T20:00:00Z}: what the lock says of its owner. */
    private static String self() {
        ProcessHandle me = ProcessHandle.current();
        Instant start = me.info().startInstant().orElse(Instant.EPOCH);
        return "process " + me.pid() + " on host " + host() + " since " + start;
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    private static Optional<String> owner(FileSystem fileSystem, Path lock) throws IOException {
        try (InputStream in = fileSystem.open(lock)) {
            String text = new String(in.readNBytes(4096), StandardCharsets.UTF_8).strip();
            return text.isEmpty()
                    ? Optional.empty()
                    : Optional.of(text.lines().findFirst().orElse(text));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /** The owner ran on this host and its process (with that start time) no longer runs. */
    private static boolean isGoneFromThisHost(String owner) {
        @SuppressWarnings("StringSplitter") // any owner line but ours has another word count and is left alone
        String[] words = owner.split(" ");
        if (words.length != 7 || !words[0].equals("process") || !words[4].equals(host())) {
            return false;
        }
        long pid;
        try {
            pid = Long.parseLong(words[1]);
        } catch (NumberFormatException e) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        return process.isEmpty()
                || !process.get().isAlive()
                || !process.get()
                        .info()
                        .startInstant()
                        .map(Instant::toString)
                        .orElse("")
                        .equals(words[6]);
    }

    /**
     * Removes the lock, and the output directory if the job made it and it is empty: a failed or interrupted job
     * leaves nothing where there was nothing (a non-recursive delete refuses a directory another job wrote into).
     * A directory that holds a {@code _SUCCESS} is not listed to find that out: on an object store the listing reads
     * every object of it (a thousand part files, seconds on S3Proxy), where the probe is one request. A lock that
     * cannot be removed (the store failed) fails the run with {@link JobFailedException}, which a failed job's own
     * error carries as suppressed.
     */
    @Override
    public void close() {
        Path directory = lock.getParent();
        try {
            store.deleteFile(fileSystem, directory, lock);
        } catch (IOException e) {
            // after a failure this is suppressed under it; after a job that wrote its dataset, the run must not end
            // as done: inspect calls a dataset with a lock incomplete, and a script would read what it cannot trust
            throw new JobFailedException(
                    "Cannot remove the lock of '" + directory + "': " + Reasons.of(e) + "; the job wrote what it had"
                            + " to, but " + lock + " is left, and inspect calls the output incomplete while it is"
                            + " there: delete it (a later run on this host takes it over, as its process is gone)",
                    e);
        }
        if (created) {
            try {
                if (!fileSystem.exists(new Path(directory, Manifest.SUCCESS_FILE_NAME))
                        && fileSystem.listStatus(directory).length == 0) {
                    fileSystem.delete(directory, false);
                }
            } catch (IOException e) {
                // an empty directory is what --overwrite and every later run accept
            }
        }
    }
}
