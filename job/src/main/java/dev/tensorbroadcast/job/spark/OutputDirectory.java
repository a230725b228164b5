package dev.tensorbroadcast.job.spark;

import dev.tensorbroadcast.job.manifest.Manifest;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where a dataset goes, and whether it may go there. A new path is fine. An existing one is refused unless
 * {@code overwrite} is set, and even then only an empty directory or one of our datasets is replaced: a directory
 * holding {@code _manifest.json}, one holding only the files a job of ours leaves behind (an interrupted run), or one
 * holding only such datasets in numbered subdirectories ({@code broadcast-tensors}). A symbolic link is never
 * followed: it is refused, and deleting a dataset deletes links inside it, not what they point to.
 */
public final class OutputDirectory {
    private static final Pattern OUR_FILE = Pattern.compile(
            "part-\\d{5,}\\.(arrow|parquet)|_manifest\\.json|_SUCCESS|_temporary|\\.[^/]*\\.crc");
    private static final Pattern INDEX = Pattern.compile("\\d+");

    private final String text;
    private final FileSystem fileSystem;
    private final Path path;
    private final boolean exists;

    private OutputDirectory(String text, FileSystem fileSystem, Path path, boolean exists) {
        this.text = text;
        this.fileSystem = fileSystem;
        this.path = path;
        this.exists = exists;
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
            return new OutputDirectory(location, fileSystem, path, false);
        } catch (IOException e) {
            throw new OutputException("Cannot write to '" + location + "': " + e.getMessage());
        }
        if (isSymlink(fileSystem, path, status)) {
            throw new OutputException("Cannot write to '" + location + "': it is a symbolic link, which is never"
                    + " followed; give the directory itself or a new path");
        }
        if (!overwrite) {
            throw new OutputException("Cannot write to '" + location + "': it already exists; choose a new path, or"
                    + " pass --overwrite to replace a dataset written by tensor-broadcast");
        }
        if (!status.isDirectory()) {
            throw new OutputException("Cannot overwrite '" + location + "': it is a file, not a dataset directory;"
                    + " --overwrite only replaces an empty directory or a tensor-broadcast dataset");
        }
        try {
            if (fileSystem.listStatus(path).length > 0 && !isDataset(fileSystem, path, true)) {
                throw new OutputException("Cannot overwrite '" + location + "': it is neither empty nor a"
                        + " tensor-broadcast dataset (it has no " + Manifest.FILE_NAME + "); --overwrite only replaces"
                        + " an empty directory or a tensor-broadcast dataset");
            }
        } catch (IOException e) {
            throw new OutputException("Cannot overwrite '" + location + "': " + e.getMessage());
        }
        return new OutputDirectory(location, fileSystem, path, true);
    }

    /** The location as the user gave it. */
    public String text() {
        return text;
    }

    public Path path() {
        return path;
    }

    public FileSystem fileSystem() {
        return fileSystem;
    }

    /**
     * Removes what {@link #check} allowed to replace. {@code _SUCCESS} and the manifest go first, so an interrupted
     * delete never leaves something that looks like a complete dataset.
     */
    public void clear() {
        if (!exists) {
            return;
        }
        try {
            deleteMarkers(path);
            for (FileStatus child : fileSystem.listStatus(path)) {
                if (child.isDirectory() && INDEX.matcher(child.getPath().getName()).matches()) {
                    deleteMarkers(child.getPath());
                }
            }
            for (FileStatus child : fileSystem.listStatus(path)) {
                fileSystem.delete(child.getPath(), true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot clear " + path + " for --overwrite", e);
        }
    }

    private void deleteMarkers(Path directory) throws IOException {
        fileSystem.delete(new Path(directory, Manifest.SUCCESS_FILE_NAME), false);
        fileSystem.delete(new Path(directory, Manifest.FILE_NAME), false);
    }

    /**
     * A dataset of ours: it has a manifest, or (after an interrupted run) only our file names; or, where
     * {@code nested} is allowed, only numbered subdirectories that are datasets.
     */
    private static boolean isDataset(FileSystem fileSystem, Path directory, boolean nested) throws IOException {
        FileStatus[] children = fileSystem.listStatus(directory);
        boolean allOurs = children.length > 0;
        boolean allNested = nested && children.length > 0;
        for (FileStatus child : children) {
            FileStatus status = linkStatus(fileSystem, child.getPath());
            String name = child.getPath().getName();
            if (name.equals(Manifest.FILE_NAME) && status.isFile()) {
                return true;
            }
            allOurs &= !isSymlink(fileSystem, child.getPath(), status) && OUR_FILE.matcher(name).matches();
            allNested &= status.isDirectory() && INDEX.matcher(name).matches()
                    && isDataset(fileSystem, child.getPath(), false);
        }
        return allOurs || allNested;
    }

    /**
     * Whether the path is a symbolic link. Hadoop reports links only when its symlink support is switched on, so a
     * local path is asked of the operating system.
     */
    private static boolean isSymlink(FileSystem fileSystem, Path path, FileStatus status) {
        if ("file".equals(path.toUri().getScheme())) {
            return java.nio.file.Files.isSymbolicLink(java.nio.file.Path.of(path.toUri()));
        }
        return status.isSymlink();
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
