package dev.tensorbroadcast.job.sink;

import static java.util.Objects.requireNonNull;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Creates a local file as Hadoop's {@code RawLocalFileSystem.create} does (its missing directories as
 * {@link LocalDirectories} makes them, the file with the file default less {@code fs.permissions.umask-mode}), without
 * its cost: Hadoop without its native library sets the new file's and each new directory's permission by starting a
 * {@code chmod} process, two per task writing a Parquet file (about 130 processes for 64 files).
 */
public final class LocalFiles {
    /** As Hadoop's stream buffers (io.file.buffer.size), a little larger: Parquet writes page headers in small pieces. */
    private static final int BUFFER_BYTES = 64 << 10;

    private LocalFiles() {}

    /** A new file at {@code file}, which must not exist, buffered; its directories made first where missing. */
    public static OutputStream create(Path file, Configuration conf) throws IOException {
        requireNonNull(file, "file is null");
        requireNonNull(conf, "conf is null");
        LocalDirectories.create(file.toAbsolutePath().getParent(), conf);
        OutputStream out = Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            FsPermission permission = FsPermission.getFileDefault().applyUMask(FsPermission.getUMask(conf));
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permission.toString()));
        } catch (IOException | RuntimeException e) {
            try (out) {
                throw e;
            }
        }
        return new BufferedOutputStream(out, BUFFER_BYTES);
    }
}
