package dev.tensorbroadcast.job.store;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Any Hadoop file system with an atomic, cheap rename (HDFS, and any scheme whose connector is on the class path and
 * no other store claims): Hadoop's {@code FileOutputCommitter} stages each attempt's files and renames them at the
 * commits, small objects are staged and renamed, and {@code --overwrite} sets the old dataset aside. Every default of
 * {@link Store} but its settings and its exclusive create (staged and renamed too) is this store's.
 */
public final class HadoopStore implements Store {
    private static final long serialVersionUID = 1L;
    static final String AUTOMATIC_CLOSE = "fs.automatic.close";

    /**
     * Hadoop's shutdown hook does not close the file system ({@code fs.automatic.close=false}) unless the user said
     * otherwise: after Ctrl-C or SIGTERM the job's abort and the release of the output's lock go through it, and with
     * the hook they failed on a closed file system and left the lock behind (the fault soak, issue 40).
     */
    @Override
    public Configuration settings(Configuration conf) {
        String value = conf.get(AUTOMATIC_CLOSE);
        String[] sources = conf.getPropertySources(AUTOMATIC_CLOSE);
        boolean userSet = value != null
                && (sources == null || Arrays.stream(sources).anyMatch(source -> !source.equals("core-default.xml")));
        if ("false".equals(value) || userSet) {
            return conf;
        }
        Configuration applied = new Configuration(conf);
        applied.set(AUTOMATIC_CLOSE, "false", "tensor-broadcast");
        return applied;
    }

    /**
     * The bytes written whole under a name of this creator's own ({@link Store#stagedCopy}), then renamed into place:
     * a rename refuses an existing target (HDFS; the file system specification), so of two creators one wins, and the
     * file at {@code path} is never one still being written. Created at its name, as before, the lock of a driver
     * killed while it wrote it stayed open under the dead client's lease, and HDFS refused every other create of that
     * name until the NameNode took the lease back, a minute later: the rerun exited 2 (the fault soak, issue 40). A
     * staged copy a killed creator left is deleted by the next creator that wins; a creator whose copy goes under it
     * has lost to that one.
     */
    @Override
    public boolean createExclusive(FileSystem fileSystem, Path path, byte[] bytes, Runnable staged) throws IOException {
        if (fileSystem.exists(path)) {
            // and a directory there never takes the copy in, as a rename into a directory would
            return false;
        }
        Path copy = new Path(
                path.getParent(),
                Store.stagedCopy(path.getName(), ThreadLocalRandom.current().nextLong()));
        boolean placed = false;
        try {
            try (OutputStream out = fileSystem.create(copy, false)) {
                out.write(bytes);
            }
            staged.run();
            placed = fileSystem.rename(copy, path);
        } catch (IOException e) {
            if (fileSystem.exists(path)) {
                // the winner deleted our copy while we wrote it
                return false;
            }
            throw e;
        } finally {
            if (!placed) {
                deleteQuietly(fileSystem, copy);
            }
        }
        if (placed) {
            for (FileStatus left : fileSystem.listStatus(
                    path.getParent(), file -> Store.isStagedCopy(file.getName(), path.getName()))) {
                fileSystem.delete(left.getPath(), false);
            }
        }
        return placed;
    }

    private static void deleteQuietly(FileSystem fileSystem, Path path) {
        try {
            fileSystem.delete(path, false);
        } catch (IOException e) {
            // a copy left behind is deleted by the next creator that wins
        }
    }

    @Override
    public Set<String> schemes() {
        return Set.of("hdfs");
    }

    @Override
    public String toString() {
        return "hadoop";
    }
}
