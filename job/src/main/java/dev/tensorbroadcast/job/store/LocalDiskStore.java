package dev.tensorbroadcast.job.store;

import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.sink.InPlaceObject;
import dev.tensorbroadcast.job.sink.LocalDirectories;
import dev.tensorbroadcast.job.sink.LocalFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * This machine's disks ({@code file:}, and a location without a scheme): renames as {@link HadoopStore}'s, but
 * written through the raw local file system (no {@code .crc} side files), through java.nio where Hadoop's local file
 * system would run a child process per file ({@code chmod}, {@code ls}), and an array's objects in place
 * (docs/architecture.md, "Array objects in place"). A job writing here may run without Spark.
 */
public final class LocalDiskStore implements Store {
    private static final long serialVersionUID = 1L;
    static final String SCHEME = "file";

    @Override
    public Set<String> schemes() {
        return Set.of(SCHEME);
    }

    /** The job's files go through the raw local file system, which writes no {@code .crc} side files. */
    @Override
    public void configureJob(Configuration job, String jobUuid) {
        job.set("fs.file.impl", RawLocalFileSystem.class.getName());
        job.setBoolean("fs.file.impl.disable.cache", true);
    }

    @Override
    public boolean writesArraysInPlace() {
        return true;
    }

    @Override
    public boolean onThisMachine() {
        return true;
    }

    /**
     * Through java.nio, with the permissions Hadoop's would give: Hadoop's local file system sets each new file's and
     * directory's permissions by running {@code chmod} in a child process, which made a thousand chunk objects cost
     * seconds, and a Parquet part file two processes per task.
     */
    @Override
    public OutputStream createObject(FileSystem fileSystem, Path path) throws IOException {
        if (fileSystem instanceof RawLocalFileSystem raw) {
            return LocalFiles.create(raw.pathToFile(path).toPath(), fileSystem.getConf());
        }
        return fileSystem.create(path, false);
    }

    /** The object's directories as Hadoop's local file system makes them, without its forked {@code chmod}. */
    @Override
    public OutputStream openInPlace(FileSystem fileSystem, Path path) throws IOException {
        java.nio.file.Path file =
                ((RawLocalFileSystem) fileSystem).pathToFile(path).toPath();
        LocalDirectories.create(file.getParent(), fileSystem.getConf());
        return InPlaceObject.open(file);
    }

    @Override
    public Optional<java.nio.file.Path> localFile(FileSystem fileSystem, Path path) {
        return fileSystem instanceof RawLocalFileSystem raw
                ? Optional.of(raw.pathToFile(path).toPath())
                : Optional.empty();
    }

    /**
     * As every store's, through the raw local file system (no {@code .crc} side file beside the object), each object
     * created as {@link #createObject} creates one.
     */
    @Override
    public void publish(FileSystem fileSystem, Path directory, String name, byte[] bytes) throws IOException {
        Store.super.publish(
                fileSystem instanceof LocalFileSystem local ? local.getRawFileSystem() : fileSystem,
                directory,
                name,
                bytes);
    }

    /** Hadoop's local create(overwrite=false) checks, then creates: not atomic; O_EXCL is. */
    @Override
    public boolean createExclusive(FileSystem fileSystem, Path path, byte[] bytes, Runnable staged) throws IOException {
        try {
            Files.write(
                    java.nio.file.Path.of(path.toUri()),
                    bytes,
                    StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        }
    }

    /**
     * The usable space of the file system that holds {@code path} (or its nearest existing ancestor). The dataset
     * --overwrite replaces is kept until the new one is complete, so its bytes do not count.
     */
    @Override
    public OptionalLong usableBytes(String location, Path path) {
        try {
            java.nio.file.Path existing = java.nio.file.Path.of(path.toUri());
            while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
                existing = existing.getParent();
            }
            if (existing == null) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(Files.getFileStore(existing).getUsableSpace());
        } catch (IOException e) {
            throw new OutputException(
                    "Cannot write to '" + location + "': cannot tell its free space: " + e.getMessage());
        }
    }

    /**
     * A local directory this process cannot write into (its permissions, a read-only file system) is said before
     * Spark starts; Spark would find it in its first task, after three lines of its own errors.
     */
    @Override
    public void requireWritable(String location, Path directory) {
        java.nio.file.Path local = java.nio.file.Path.of(directory.toUri());
        if (!Files.isWritable(local)) {
            throw new OutputException("Cannot write to '" + location + "': directory " + local + " is not writable"
                    + " (its permissions, or a read-only file system); choose a directory you can write");
        }
        try {
            // /proc and /sys say they are writable and then refuse every new file: their size gives them away
            java.nio.file.FileStore store = Files.getFileStore(local);
            if (store.getTotalSpace() == 0) {
                throw new OutputException("Cannot write to '" + location + "': directory " + local + " is on a "
                        + store.type() + " file system, which holds no files; choose a directory on a disk");
            }
        } catch (IOException e) {
            throw new OutputException("Cannot write to '" + location + "': " + e.getMessage());
        }
    }

    /** Hadoop reports links only when its symlink support is switched on: a local path is asked of the system. */
    @Override
    public boolean isSymlink(FileSystem fileSystem, Path path, FileStatus status) {
        return Files.isSymbolicLink(java.nio.file.Path.of(path.toUri()));
    }

    /**
     * The real path, every symbolic link resolved, from the nearest existing ancestor (the part that does not exist
     * yet taken as written below it).
     */
    @Override
    public String resolved(Path qualified) {
        java.nio.file.Path local = java.nio.file.Path.of(qualified.toUri()).normalize();
        Deque<String> missing = new ArrayDeque<>();
        java.nio.file.Path existing = local;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            missing.push(existing.getFileName().toString());
            existing = existing.getParent();
        }
        if (existing == null) {
            return SCHEME + ":" + local;
        }
        java.nio.file.Path real;
        try {
            real = existing.toRealPath();
        } catch (IOException e) {
            // a dangling link: compare what is written, which names nothing of an input's
            real = existing;
        }
        while (!missing.isEmpty()) {
            real = real.resolve(missing.pop());
        }
        return SCHEME + ":" + real;
    }

    @Override
    public boolean isFile(String resolved) {
        return resolved.startsWith(SCHEME + ":")
                && Files.isRegularFile(java.nio.file.Path.of(resolved.substring(SCHEME.length() + 1)));
    }

    @Override
    public String toString() {
        return "local disk";
    }

    /** A plain path: Python's readers take no {@code file:} URI. */
    @Override
    public String readerLocation(Path qualified) {
        return qualified.toUri().getPath();
    }
}
