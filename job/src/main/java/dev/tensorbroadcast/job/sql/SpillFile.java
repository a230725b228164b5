package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.spark.SparkEnv;

/**
 * A sink task's file on its executor's local disk, written as the task's rows arrive and read back when it commits:
 * in Spark's local directories, where Spark's own sorters spill (and which Spark clears when the executor stops), or
 * in the temporary directory outside Spark. Closing it deletes it.
 */
final class SpillFile implements Closeable {
    private final Path path;
    private final FileChannel channel;

    private SpillFile(Path path, FileChannel channel) {
        this.path = requireNonNull(path, "path is null");
        this.channel = requireNonNull(channel, "channel is null");
    }

    /** A new empty file, open for writing and reading. */
    static SpillFile create() throws IOException {
        SparkEnv env = SparkEnv.get();
        Path path = env == null
                ? Files.createTempFile("tensorbroadcast-sink-", ".spill")
                : env.blockManager()
                        .diskBlockManager()
                        .createTempLocalBlock()
                        ._2()
                        .toPath();
        try {
            return new SpillFile(
                    path,
                    FileChannel.open(
                            path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE));
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(path);
            throw e;
        }
    }

    Path path() {
        return path;
    }

    FileChannel channel() {
        return channel;
    }

    /** Closes and deletes the file; closing again does nothing. */
    @Override
    public void close() throws IOException {
        try {
            channel.close();
        } finally {
            Files.deleteIfExists(path);
        }
    }
}
