package dev.tensorbroadcast.job.dataset;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.base.DatasetException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.commit.CommitRecord;
import dev.tensorbroadcast.job.commit.DatasetIndex;
import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.commit.SetAside;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.job.store.Locations;
import dev.tensorbroadcast.job.store.Stores;
import dev.tensorbroadcast.planner.Param;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A dataset directory as found on its file system: the manifest if there is one, whether {@code _SUCCESS} exists,
 * and the size of every other entry. Opened through the Hadoop {@link FileSystem} API, so any file system URI works.
 *
 * <p>The file system is a private instance with Hadoop's own {@code .crc} checks turned off: a damaged file must
 * reach our checks (and be named by them), not fail inside the local file system's checksum layer.
 */
public final class DatasetDirectory implements Closeable {
    private static final String ROLE = "dataset";

    private final String name;
    private final FileSystem fileSystem;
    private final Path path;
    private final Manifest manifest;
    private final boolean success;
    private final Map<String, Long> entries;

    private DatasetDirectory(
            String name,
            FileSystem fileSystem,
            Path path,
            Manifest manifest,
            boolean success,
            Map<String, Long> entries) {
        this.name = name;
        this.fileSystem = fileSystem;
        this.path = path;
        this.manifest = manifest;
        this.success = success;
        this.entries = entries;
    }

    /** Where Hadoop's committer keeps the attempts of a write until the job commits. */
    private static final String UNFINISHED_WRITE = "_temporary";

    /**
     * Opens {@code dir} for {@code verb} (used in messages). A missing path, a file, or a directory with none of
     * {@code _manifest.json}, {@code _SUCCESS} and {@code part-*} files is refused with a {@link DatasetException};
     * an empty location, or one on no known file system, as {@link Locations} refuses it.
     */
    public static DatasetDirectory open(String dir, Configuration conf, String verb) throws IOException {
        requireNonNull(dir, "dir is null");
        Path qualified = Locations.locate(ROLE, dir, conf).path();
        // a file system of its own, closed with the directory, with its store's settings, as Locations made its own
        FileSystem fileSystem = FileSystem.newInstance(
                qualified.toUri(), Stores.forPath(qualified).settings(conf));
        try {
            fileSystem.setVerifyChecksum(false);
            FileStatus[] statuses;
            try {
                if (!fileSystem.getFileStatus(qualified).isDirectory()) {
                    throw new DatasetException("Cannot " + verb + " " + dir + ": it is a file; expected a dataset"
                            + " directory holding _manifest.json, _SUCCESS and part-* files");
                }
                statuses = fileSystem.listStatus(qualified);
            } catch (FileNotFoundException e) {
                throw new DatasetException("Cannot " + verb + " " + dir + ": no such directory");
            } catch (IOException e) {
                // a missing bucket or refused keys: as much a bad location as a missing directory
                if (Reasons.ofStore(e).isPresent()) {
                    throw new DatasetException("Cannot " + verb + " " + dir + ": " + Reasons.of(e));
                }
                throw e;
            }
            Map<String, Long> entries = new TreeMap<>();
            for (FileStatus status : statuses) {
                String entry = status.getPath().getName();
                if (!entry.startsWith(".")) {
                    entries.put(entry, status.isDirectory() ? -1L : status.getLen());
                }
            }
            if (entries.containsKey(DatasetIndex.FILE_NAME)) {
                List<String> datasets = entries.entrySet().stream()
                        .filter(entry -> entry.getValue() < 0 && entry.getKey().matches("\\d{1,9}"))
                        .map(Map.Entry::getKey)
                        .sorted(Comparator.comparingInt(Integer::parseInt))
                        .toList();
                if (!datasets.isEmpty()) {
                    throw new DatasetException("Cannot " + verb + " " + dir + ": it holds one dataset per input ("
                            + DatasetIndex.FILE_NAME + " names them: " + String.join(", ", datasets) + "), not one"
                            + " dataset; " + verb + " each, such as " + dir.replaceAll("/+$", "") + "/"
                            + datasets.get(0));
                }
            }
            boolean hasManifest = entries.containsKey(Manifest.FILE_NAME);
            boolean success = entries.containsKey(Manifest.SUCCESS_FILE_NAME);
            boolean hasParts = entries.keySet().stream().anyMatch(entry -> entry.startsWith(Manifest.PART_PREFIX));
            // a job killed before its commit leaves only Spark's _temporary: an incomplete dataset, not a stranger
            boolean unfinished = entries.containsKey(UNFINISHED_WRITE)
                    || entries.keySet().stream().anyMatch(Stores::isStagingName)
                    || entries.keySet().stream().anyMatch(OutputLock::isLockName)
                    || entries.containsKey(SetAside.DIRECTORY)
                    || entries.containsKey(CommitRecord.FILE_NAME);
            if (!hasManifest && !unfinished) {
                Optional<ForeignFiles> foreign = ForeignFiles.find(dir, conf);
                if (foreign.isPresent()) {
                    // as inspect says it, but a refusal: there is no manifest to check or export by
                    throw new DatasetException("Cannot " + verb + " " + dir + ": not ours: "
                            + foreign.get().describe() + ", readable as an input (" + dir + " has no "
                            + Manifest.FILE_NAME + ": another tool wrote it); " + verb + " reads only datasets"
                            + " tensor-broadcast wrote");
                }
            }
            if (!hasManifest && !success && !hasParts && !unfinished) {
                throw new DatasetException("Cannot " + verb + " " + dir + ": it is not a tensor-broadcast dataset"
                        + " (no _manifest.json, _SUCCESS or part-* files)");
            }
            Manifest manifest = null;
            if (hasManifest) {
                try (InputStream in = fileSystem.open(new Path(qualified, Manifest.FILE_NAME))) {
                    manifest = ManifestJson.read(in, dir + "/" + Manifest.FILE_NAME);
                }
            }
            return new DatasetDirectory(dir, fileSystem, qualified, manifest, success, entries);
        } catch (IOException | RuntimeException e) {
            fileSystem.close();
            throw e;
        }
    }

    /** The directory as the user named it. */
    public String name() {
        return name;
    }

    public FileSystem fileSystem() {
        return fileSystem;
    }

    public Path path() {
        return path;
    }

    public Path resolve(String relative) {
        return new Path(path, relative);
    }

    public Optional<Manifest> manifest() {
        return Optional.ofNullable(manifest);
    }

    public boolean hasSuccess() {
        return success;
    }

    /** Every entry of the directory but hidden ones, by name: its size, or -1 for a directory. */
    public Map<String, Long> entries() {
        return entries;
    }

    /** The size of a top-level file, or empty when it does not exist; nested paths are looked up. */
    public Optional<Long> size(String relative) throws IOException {
        if (!relative.contains("/")) {
            Long size = entries.get(relative);
            return size == null || size < 0 ? Optional.empty() : Optional.of(size);
        }
        try {
            FileStatus status = fileSystem.getFileStatus(resolve(relative));
            return status.isFile() ? Optional.of(status.getLen()) : Optional.empty();
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * Why the dataset is not complete, one line each, or nothing when it is: {@code _SUCCESS} and the manifest
     * exist, and every file the manifest lists exists with its listed size.
     */
    public List<String> incompleteness() throws IOException {
        List<String> reasons = new ArrayList<>();
        if (manifest == null) {
            reasons.add("no " + Manifest.FILE_NAME);
        }
        if (!success) {
            reasons.add("no " + Manifest.SUCCESS_FILE_NAME);
        }
        if (entries.containsKey(OutputLock.FILE_NAME)) {
            reasons.add(OutputLock.FILE_NAME + " is there: a job is writing the dataset, or was stopped before it"
                    + " finished");
        }
        entries.keySet().stream()
                .filter(name -> OutputLock.isLockName(name) && !name.equals(OutputLock.FILE_NAME))
                .forEach(name -> reasons.add(name + " is there: a job was stopped while it took the output's lock"));
        if (entries.containsKey(CommitRecord.FILE_NAME)) {
            reasons.add(CommitRecord.FILE_NAME + " is there: a job was stopped while it committed the dataset that"
                    + " replaces this one, whose files it had uploaded; rerun with "
                    + Param.OVERWRITE.given("true", null) + ", which finishes that commit before it writes");
        }
        if (!reasons.isEmpty() && entries.containsKey(SetAside.DIRECTORY)) {
            reasons.add(SetAside.DIRECTORY + " is there: the dataset an " + Param.OVERWRITE.named() + " was"
                    + " replacing when it was stopped; move its entries back, or rerun with "
                    + Param.OVERWRITE.given("true", null));
        }
        if (manifest != null) {
            for (DatasetFile file : manifest.files()) {
                Optional<Long> size = size(file.path());
                if (size.isEmpty()) {
                    reasons.add(file.path() + " is missing");
                } else if (size.get() != file.bytes()) {
                    reasons.add(file.path() + " has " + size.get() + " bytes, the manifest says " + file.bytes());
                }
            }
        }
        return reasons;
    }

    /** Entries the manifest does not account for (all data entries when there is no manifest). */
    public Map<String, Long> strayEntries() {
        Map<String, Long> stray = new TreeMap<>(entries);
        stray.remove(Manifest.FILE_NAME);
        stray.remove(Manifest.SUCCESS_FILE_NAME);
        stray.keySet().removeIf(OutputLock::isLockName);
        stray.remove(CommitRecord.FILE_NAME);
        if (manifest != null) {
            for (DatasetFile file : manifest.files()) {
                stray.remove(file.path());
                // an array's chunk objects (c/0/1) and a partitioned dataset's key=value directories hold listed
                // files: their top directory is not stray
                stray.remove(file.path().split("/", 2)[0]);
            }
        }
        return stray;
    }

    @Override
    public void close() throws IOException {
        fileSystem.close();
    }
}
