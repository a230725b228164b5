package dev.tensorbroadcast.job.sink;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Makes a local file's directories as Hadoop's {@code LocalFileSystem.mkdirs} does (each new directory gets the
 * directory default less the configuration's umask, {@code fs.permissions.umask-mode}), without its cost: Hadoop
 * without its native library sets each new directory's permission by starting a {@code chmod} process, which a task
 * writing its file into its own attempt directory paid once per task (the largest part of a small task's time).
 */
public final class LocalDirectories {
    private LocalDirectories() {}

    /** Creates {@code directory} and its missing parents, each with Hadoop's permission; true when one was made. */
    public static boolean create(Path directory, Configuration conf) throws IOException {
        requireNonNull(directory, "directory is null");
        requireNonNull(conf, "conf is null");
        Deque<Path> missing = new ArrayDeque<>();
        for (Path at = directory.toAbsolutePath(); at != null && !Files.isDirectory(at); at = at.getParent()) {
            missing.push(at);
        }
        if (missing.isEmpty()) {
            return false;
        }
        FsPermission permission = FsPermission.getDirDefault().applyUMask(FsPermission.getUMask(conf));
        var posix = PosixFilePermissions.fromString(permission.toString());
        while (!missing.isEmpty()) {
            Path next = missing.pop();
            try {
                Files.createDirectory(next);
            } catch (FileAlreadyExistsException e) {
                // another task made it meanwhile (or it is a file, which the next step or the write reports)
                continue;
            }
            Files.setPosixFilePermissions(next, posix);
        }
        return true;
    }
}
