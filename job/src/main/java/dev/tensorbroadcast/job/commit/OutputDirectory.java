package dev.tensorbroadcast.job.commit;

import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestException;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.job.sink.PartFileNames;
import dev.tensorbroadcast.job.store.Locations;
import dev.tensorbroadcast.job.store.Store;
import dev.tensorbroadcast.job.store.Stores;
import dev.tensorbroadcast.planner.Param;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where a dataset goes, and whether it may go there. A new path is fine. An existing one is refused unless
 * {@code overwrite} is set, and even then only an empty directory or one of our datasets is replaced: a directory
 * holding nothing but the names a job of ours writes (part files, a {@code _manifest.json} that reads as one of our
 * manifests, {@code _SUCCESS}, Spark's {@code _temporary}), or only such datasets in numbered subdirectories
 * ({@code broadcast-tensors}) with the {@link DatasetIndex} that names them. A single file of any other name makes it
 * not ours. A symbolic link is never followed: it is refused. Replacing checks again, then sets those names aside
 * and deletes them only once the new dataset is complete ({@link SetAside}), never anything else.
 */
public final class OutputDirectory {
    private static final Pattern OUR_FILE = Pattern.compile(Pattern.quote(Manifest.FILE_NAME)
            + "|" + Pattern.quote(Manifest.FILE_NAME + Manifest.STAGED_SUFFIX) + "|"
            + Pattern.quote(Manifest.SUCCESS_FILE_NAME) + "|_temporary|\\.[^/]*\\.crc|"
            + Pattern.quote(OutputLock.FILE_NAME) + "|" + Pattern.quote(CommitRecord.FILE_NAME) + "|"
            + Pattern.quote(CommitRecord.FILE_NAME + Manifest.STAGED_SUFFIX) + "|" + Pattern.quote(SetAside.MOVING));
    private static final Pattern INDEX = Pattern.compile("\\d+");

    /** A name a job of ours writes: a part file of any dataset format, one of {@link #OUR_FILE}, a store's staging. */
    private static boolean ours(String name) {
        return PartFileNames.isOurs(name)
                || OUR_FILE.matcher(name).matches()
                || OutputLock.isLockName(name)
                || PartFileNames.isArrayName(name)
                || Stores.isStagingName(name);
    }

    /** An array's chunk tree: directories and files named by grid indexes only, no link among them. */
    private static boolean isChunkTree(FileSystem fileSystem, Path directory) throws IOException {
        for (FileStatus child : fileSystem.listStatus(directory)) {
            FileStatus status = linkStatus(fileSystem, child.getPath());
            if (isSymlink(fileSystem, child.getPath(), status)
                    || !INDEX.matcher(child.getPath().getName()).matches()
                    || (status.isDirectory() && !isChunkTree(fileSystem, child.getPath()))) {
                return false;
            }
        }
        return true;
    }
    /** Where Spark's commit protocol stages a job's files. */
    private static final String STAGING = "_temporary";

    private final String text;
    private final FileSystem fileSystem;
    private final Path path;
    private final boolean exists;
    private final Store store;

    private OutputDirectory(String text, FileSystem fileSystem, Path path, boolean exists) {
        this.text = text;
        this.fileSystem = fileSystem;
        this.path = path;
        this.exists = exists;
        this.store = Stores.forPath(path);
    }

    /** Checks that {@code location} may be written; writes nothing. */
    public static OutputDirectory check(String location, boolean overwrite, Configuration conf) {
        Locations.Located output = Locations.locate("output", location, conf);
        FileSystem fileSystem = output.fileSystem();
        Path path = output.path();
        FileStatus status;
        try {
            status = linkStatus(fileSystem, path);
        } catch (FileNotFoundException e) {
            requireDirectoryAbove(location, fileSystem, path);
            return new OutputDirectory(location, fileSystem, path, false);
        } catch (IOException e) {
            throw new OutputException("Cannot write to '" + location + "': " + Reasons.of(e));
        }
        if (isSymlink(fileSystem, path, status)) {
            throw new OutputException("Cannot write to '" + location + "': it is a symbolic link, which is never"
                    + " followed; give the directory itself or a new path");
        }
        if (!overwrite) {
            throw new OutputException("Cannot write to '" + location + "': it already exists; choose a new path, or"
                    + " pass " + Param.OVERWRITE.given("true", null) + " to replace a dataset written by"
                    + " tensor-broadcast");
        }
        if (!status.isDirectory()) {
            throw new OutputException("Cannot overwrite '" + location + "': it is a file, not a dataset directory;"
                    + " " + Param.OVERWRITE.named() + " only replaces an empty directory or a tensor-broadcast"
                    + " dataset");
        }
        requireOursOrEmpty(location, fileSystem, path);
        return new OutputDirectory(location, fileSystem, path, true);
    }

    public Path path() {
        return path;
    }

    public FileSystem fileSystem() {
        return fileSystem;
    }

    /** The store the output is on. */
    public Store store() {
        return store;
    }

    /**
     * The bytes a job could write here, where its store can tell (a local disk's usable space); empty where a job
     * cannot rely on it (a quota, a bucket).
     */
    public OptionalLong usableBytes() {
        return store.usableBytes(text, path);
    }

    /**
     * Takes the output for this job until the lock is closed; a second writer is refused while it is held. Take it
     * before {@link #replaceWith}, so that no other job's files are moved, deleted or mixed with ours.
     */
    public OutputLock lock() {
        return OutputLock.acquire(text, store, fileSystem, path);
    }

    /**
     * Runs {@code write} in place of what {@link #check} allowed to replace, under the lock: the old dataset is set
     * aside (see {@link SetAside}) and deleted only once {@code write} returns; if it throws, its leftovers go and the
     * old dataset is moved back.
     */
    public <T> T replaceWith(Supplier<T> write) {
        if (exists) {
            finishStoppedCommits();
        }
        SetAside aside = setAside();
        T written;
        try {
            written = write.get();
        } catch (Throwable failure) {
            // Spark's Scala exceptions are checked in Java's eyes and may come through undeclared
            aside.restore(failure);
            throw failure;
        }
        aside.discard();
        return written;
    }

    /**
     * Finishes the commits a stopped job left a {@link CommitRecord} of, in the output or in its numbered datasets,
     * so that while this job runs the output reads as the dataset that job committed. One that cannot be finished
     * (its uploads gone) loses its record: this job replaces what is there either way.
     */
    private void finishStoppedCommits() {
        try {
            finishStoppedCommit(path);
            // numbered datasets start at 0/: a probe spares a single dataset's output the listing of its files
            FileStatus[] nested = !fileSystem.exists(new Path(path, "0"))
                    ? null
                    : fileSystem.globStatus(new Path(path, "[0-9]*/" + CommitRecord.FILE_NAME));
            if (nested != null) {
                for (FileStatus record : nested) {
                    finishStoppedCommit(record.getPath().getParent());
                }
            }
        } catch (IOException e) {
            throw new OutputException("Cannot overwrite '" + text + "': " + Reasons.of(e));
        }
    }

    private void finishStoppedCommit(Path dataset) throws IOException {
        Optional<CommitRecord> record;
        try {
            record = CommitRecord.find(fileSystem, dataset);
        } catch (IOException unreadable) {
            CommitRecord.delete(store, fileSystem, dataset);
            return;
        }
        if (record.isPresent()) {
            try {
                record.get().finish(store, fileSystem, dataset);
            } catch (IOException | RuntimeException unfinishable) {
                CommitRecord.delete(store, fileSystem, dataset);
            }
        }
    }

    /** Moves what {@link #check} allowed to replace aside; take the {@link #lock} first. */
    private SetAside setAside() {
        if (!exists || !store.setsAsideOnOverwrite()) {
            // where a move is a copy (S3) the old dataset stays where it is, and the commit replaces it
            return SetAside.nothing(text, fileSystem, path);
        }
        // Spark started between the check and now: whatever appeared meanwhile must not be moved or deleted unseen
        requireOursOrEmpty(text, fileSystem, path);
        return SetAside.of(text, fileSystem, path);
    }

    /** A name our jobs write at the top of an output: a dataset's files, numbered datasets, their index. */
    static boolean isOurName(String name) {
        return (ours(name) && !OutputLock.isLockName(name))
                || isPartitionName(name)
                || INDEX.matcher(name).matches()
                || isIndexName(name);
    }

    /** A new path can only be made under directories: the nearest existing ancestor must be one. */
    private static void requireDirectoryAbove(String location, FileSystem fileSystem, Path path) {
        for (Path parent = path.getParent(); parent != null; parent = parent.getParent()) {
            try {
                if (!fileSystem.getFileStatus(parent).isDirectory()) {
                    throw new OutputException("Cannot write to '" + location + "': " + parent + " is a file, so"
                            + " nothing can be made under it; choose a path under a directory");
                }
                Stores.forPath(parent).requireWritable(location, parent);
                return;
            } catch (FileNotFoundException e) {
                // not there either: look further up
            } catch (IOException e) {
                throw new OutputException("Cannot write to '" + location + "': " + Reasons.of(e));
            }
        }
    }

    private static void requireOursOrEmpty(String location, FileSystem fileSystem, Path path) {
        try {
            if (fileSystem.listStatus(path).length > 0 && !isDataset(fileSystem, path, true)) {
                throw new OutputException("Cannot overwrite '" + location + "': it is neither empty nor a"
                        + " tensor-broadcast dataset (it holds files a tensor-broadcast job does not write, or a "
                        + Manifest.FILE_NAME + " that is not ours); " + Param.OVERWRITE.named() + " only replaces an"
                        + " empty directory or a tensor-broadcast dataset");
            }
        } catch (IOException e) {
            throw new OutputException("Cannot overwrite '" + location + "': " + Reasons.of(e));
        }
    }

    /**
     * A dataset of ours: only our file names, a manifest among them reading as one of ours (an interrupted run may
     * have none); or, where {@code nested} is allowed, only numbered subdirectories that are datasets.
     */
    private static boolean isDataset(FileSystem fileSystem, Path directory, boolean nested) throws IOException {
        FileStatus[] children = fileSystem.listStatus(directory);
        boolean allOurs = children.length > 0;
        boolean allNested = nested && children.length > 0;
        boolean index = false;
        int datasets = 0;
        for (FileStatus child : children) {
            try {
                FileStatus status = linkStatus(fileSystem, child.getPath());
                String name = child.getPath().getName();
                if (OutputLock.isLockName(name) && status.isFile()) {
                    // a job's lock (or a killed job's staged copy of it), next to a dataset or to numbered ones: ours
                    // either way
                    continue;
                }
                if (nested
                        && name.equals(SetAside.DIRECTORY)
                        && !directory.getName().equals(SetAside.DIRECTORY)) {
                    // the dataset a stopped --overwrite kept aside: ours when it holds one of ours, or nothing
                    if (!status.isDirectory()
                            || isSymlink(fileSystem, child.getPath(), status)
                            || (fileSystem.listStatus(child.getPath()).length > 0
                                    && !isDataset(fileSystem, child.getPath(), true))) {
                        return false;
                    }
                    continue;
                }
                if (name.equals(Manifest.FILE_NAME)
                        && !(status.isFile() && isOurManifest(fileSystem, child.getPath()))) {
                    return false;
                }
                if (nested
                        && isIndexName(name)
                        && status.isFile()
                        && !isSymlink(fileSystem, child.getPath(), status)
                        && (name.endsWith(Manifest.STAGED_SUFFIX)
                                ? status.getLen() <= DatasetIndex.MAX_BYTES
                                : DatasetIndex.isOurs(fileSystem, child.getPath()))) {
                    // the index of numbered datasets: ours beside them, and never a part of a single dataset
                    allOurs = false;
                    index = true;
                    continue;
                }
                boolean link = isSymlink(fileSystem, child.getPath(), status);
                allOurs &= !link
                        && (isPartitionName(name)
                                ? isPartitionTree(fileSystem, child.getPath())
                                : ours(name) && hasOurKind(fileSystem, child.getPath(), name, status));
                // a link named 0 would make the target's files look like output/0's, and replacing would delete them
                boolean dataset = !link
                        && status.isDirectory()
                        && INDEX.matcher(name).matches()
                        && isDataset(fileSystem, child.getPath(), false);
                allNested &= dataset;
                datasets += dataset ? 1 : 0;
            } catch (FileNotFoundException gone) {
                // moved or deleted while we look: only a job writing here does that, and its lock will say so
            }
        }
        // an index is ours only beside the datasets it names: alone it is a file like any other
        return allOurs || (allNested && (!index || datasets > 0));
    }

    /** A {@code key=value} directory of a partitioned dataset ({@code --partition-by}). */
    private static boolean isPartitionName(String name) {
        return name.indexOf('=') > 0 && !name.startsWith("_") && !name.startsWith(".");
    }

    /**
     * A {@code key=value} directory as a partitioned job of ours writes it: a real directory holding part files
     * (and checksum side files), or further {@code key=value} directories of the same kind, and nothing else.
     */
    private static boolean isPartitionTree(FileSystem fileSystem, Path directory) throws IOException {
        FileStatus status = linkStatus(fileSystem, directory);
        if (!status.isDirectory() || isSymlink(fileSystem, directory, status)) {
            return false;
        }
        FileStatus[] children = fileSystem.listStatus(directory);
        for (FileStatus child : children) {
            FileStatus childStatus = linkStatus(fileSystem, child.getPath());
            String name = child.getPath().getName();
            boolean ours = isPartitionName(name)
                    ? isPartitionTree(fileSystem, child.getPath())
                    : !isSymlink(fileSystem, child.getPath(), childStatus)
                            && childStatus.isFile()
                            && (PartFileNames.isOurs(name) || name.matches("\\.[^/]*\\.crc"));
            if (!ours) {
                return false;
            }
        }
        return children.length > 0;
    }

    /** The index of numbered datasets, or the staged copy a full disk may have left of it. */
    private static boolean isIndexName(String name) {
        return name.equals(DatasetIndex.FILE_NAME) || name.equals(DatasetIndex.FILE_NAME + Manifest.STAGED_SUFFIX);
    }

    /**
     * Our names are files, except Spark's {@code _temporary}: a directory of numbered job-attempt directories. A
     * directory named like a part file, or a {@code _temporary} holding anything else, is someone else's, and
     * replacing (which deletes our names recursively) must not take it.
     */
    private static boolean hasOurKind(FileSystem fileSystem, Path path, String name, FileStatus status)
            throws IOException {
        if (name.equals(PartFileNames.CHUNK_DIRECTORY)) {
            return status.isFile() || (status.isDirectory() && isChunkTree(fileSystem, path));
        }
        if (name.equals(SetAside.MOVING)) {
            // an overwrite's move of the old dataset, stopped halfway: an empty directory
            return status.isDirectory() && fileSystem.listStatus(path).length == 0;
        }
        if (Stores.isStagingName(name)) {
            // a stopped job's pending uploads: markers and small .pending files, never data a reader sees
            return status.isDirectory();
        }
        if (!name.equals(STAGING)) {
            return status.isFile();
        }
        if (!status.isDirectory()) {
            return false;
        }
        for (FileStatus attempt : fileSystem.listStatus(path)) {
            if (!attempt.isDirectory()
                    || !INDEX.matcher(attempt.getPath().getName()).matches()
                    || isSymlink(fileSystem, attempt.getPath(), linkStatus(fileSystem, attempt.getPath()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isOurManifest(FileSystem fileSystem, Path manifest) throws IOException {
        try (InputStream in = fileSystem.open(manifest)) {
            ManifestJson.read(in, manifest.toString());
            return true;
        } catch (ManifestException e) {
            return false;
        }
    }

    /** Whether the path is a symbolic link, as its store tells (Hadoop reports links only when told to). */
    private static boolean isSymlink(FileSystem fileSystem, Path path, FileStatus status) {
        return Stores.forPath(path).isSymlink(fileSystem, path, status);
    }

    /** The status of the path itself, a link included, where the file system knows links. */
    private static FileStatus linkStatus(FileSystem fileSystem, Path path) throws IOException {
        try {
            return fileSystem.getFileLinkStatus(path);
        } catch (UnsupportedOperationException e) {
            return fileSystem.getFileStatus(path);
        }
    }
}
