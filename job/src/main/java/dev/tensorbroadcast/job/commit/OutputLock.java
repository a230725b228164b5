package dev.tensorbroadcast.job.commit;

import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.planner.Param;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A job's ownership of its output directory for the whole of its life: a file created exclusively in the directory
 * before anything there is deleted or written, removed after {@code _SUCCESS} (or after a failed job's abort). A second
 * writer finds it and is refused, naming the owner. A lock left by a killed driver on this host, whose process is
 * gone, is taken over; one from another host is left to the user, as its owner cannot be asked.
 */
public final class OutputLock implements AutoCloseable {
    public static final String FILE_NAME = "_tensor-broadcast.lock";
    /** Hadoop's create option for a write that fails when the file exists (S3A: {@code If-None-Match: *}). */
    private static final String CONDITIONAL_CREATE = "fs.option.create.conditional.overwrite";

    private final FileSystem fileSystem;
    private final Path lock;
    /** Whether the job made the output directory, which it then removes again if nothing came of the job. */
    private final boolean created;

    private OutputLock(FileSystem fileSystem, Path lock, boolean created) {
        this.fileSystem = fileSystem;
        this.lock = lock;
        this.created = created;
    }

    static OutputLock acquire(String location, FileSystem fileSystem, Path directory) {
        Path lock = new Path(directory, FILE_NAME);
        try {
            boolean created = !fileSystem.exists(directory);
            fileSystem.mkdirs(directory);
            for (int attempt = 0; ; attempt++) {
                if (create(fileSystem, lock)) {
                    return new OutputLock(fileSystem, lock, created);
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

    /** Creates the lock with this process as its owner; false when it exists. */
    private static boolean create(FileSystem fileSystem, Path lock) throws IOException {
        byte[] owner = (self() + "\n").getBytes(StandardCharsets.UTF_8);
        if ("file".equals(lock.toUri().getScheme())) {
            // Hadoop's local create(overwrite=false) checks, then creates: not atomic; O_EXCL is
            try {
                java.nio.file.Files.write(java.nio.file.Path.of(lock.toUri()), owner,
                        java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
                return true;
            } catch (FileAlreadyExistsException e) {
                return false;
            }
        }
        // a store that ignores the conditional header (S3Proxy) still refuses a writer that comes second
        if (fileSystem.exists(lock)) {
            return false;
        }
        return createExclusively(fileSystem, lock, owner);
    }

    /**
     * Writes {@code lock} unless it exists: false when it does. HDFS creates exclusively. S3A writes with
     * {@code If-None-Match: *}, which a store that honours it refuses with 412 when the key exists, so of two writers
     * that both found no lock only one gets it where the store decides atomically (AWS S3); a store that ignores
     * the header takes both (docs/storage.md: what each S3 server guarantees).
     */
    static boolean createExclusively(FileSystem fileSystem, Path lock, byte[] owner) throws IOException {
        FSDataOutputStreamBuilder<?, ?> create = fileSystem.createFile(lock);
        create.overwrite(false);
        create.recursive();
        create.opt(CONDITIONAL_CREATE, true);
        try (OutputStream out = create.build()) {
            out.write(owner);
        } catch (IOException e) {
            if (isPreconditionFailed(e)) {
                return false;
            }
            throw e;
        }
        return true;
    }

    /**
     * Whether a failed write is the store's 412 for an object that exists: S3A raises it at close, where the
     * upload happens, as a {@code RemoteFileChangedException} (or a {@code FileAlreadyExistsException}) whose
     * cause is the SDK's exception with that status.
     */
    static boolean isPreconditionFailed(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof org.apache.hadoop.fs.FileAlreadyExistsException
                    || cause.getClass().getSimpleName().equals("RemoteFileChangedException")
                    || String.valueOf(cause.getMessage()).contains("412")
                    && String.valueOf(cause.getMessage()).contains("Precondition")) {
                return true;
            }
        }
        return false;
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
            return text.isEmpty() ? Optional.empty() : Optional.of(text.lines().findFirst().orElse(text));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /** The owner ran on this host and its process (with that start time) no longer runs. */
    private static boolean isGoneFromThisHost(String owner) {
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
        return process.isEmpty() || !process.get().isAlive() || !process.get().info().startInstant()
                .map(Instant::toString).orElse("").equals(words[6]);
    }

    /**
     * Removes the lock, and the output directory if the job made it and it is empty: a failed or interrupted job
     * leaves nothing where there was nothing (a non-recursive delete refuses a directory another job wrote into).
     * A directory that holds a {@code _SUCCESS} is not listed to find that out: on an object store the listing reads
     * every object of it (a thousand part files, seconds on S3Proxy), where the probe is one request.
     */
    @Override
    public void close() {
        Path directory = lock.getParent();
        try {
            if (ObjectStoreCommit.applies(lock)) {
                // one request: S3A's delete would probe the lock first and list the directory after
                ObjectStoreCommit.deleteFiles(fileSystem, directory, List.of(lock));
            } else {
                fileSystem.delete(lock, false);
            }
        } catch (IOException e) {
            // a lock left behind names a process that is gone: the next run takes it over
            return;
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
