package dev.tensorbroadcast.job.store.seconddisk;

import dev.tensorbroadcast.job.store.Store;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A store only the tests know: {@code seconddisk:} paths, on this machine's disk through a Hadoop file system of
 * their own ({@link SecondDiskFileSystem}, which Hadoop finds by its own registry: this module's test
 * {@code META-INF/services/org.apache.hadoop.fs.FileSystem}), with an atomic rename, so every answer but two is
 * {@link Store}'s default. It is one class and one registration ({@code Stores.register}), and no file of the
 * pipeline names it: {@code NewStoreTest} writes datasets through it.
 */
public final class SecondDiskStore implements Store {
    private static final long serialVersionUID = 1L;
    static final String SCHEME = "seconddisk";
    /** What the pipeline had this store publish, by name: the test's evidence that the store was asked. */
    public static final List<String> PUBLISHED = new CopyOnWriteArrayList<>();

    @Override
    public Set<String> schemes() {
        return Set.of(SCHEME);
    }

    /** Its files are on this machine's disk: a job may run without Spark, as on the local disk. */
    @Override
    public boolean onThisMachine() {
        return true;
    }

    @Override
    public void publish(FileSystem fileSystem, Path directory, String name, byte[] bytes) throws IOException {
        PUBLISHED.add(name);
        Store.super.publish(fileSystem, directory, name, bytes);
    }

    @Override
    public String toString() {
        return SCHEME;
    }
}
