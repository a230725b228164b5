package dev.tensorbroadcast.job.store;

import java.util.Set;

/**
 * Any Hadoop file system with an atomic, cheap rename (HDFS, and any scheme whose connector is on the class path and
 * no other store claims): Hadoop's {@code FileOutputCommitter} stages each attempt's files and renames them at the
 * commits, small objects are staged and renamed, and {@code --overwrite} sets the old dataset aside. Every default of
 * {@link Store} is this store's.
 */
public final class HadoopStore implements Store {
    private static final long serialVersionUID = 1L;

    @Override
    public Set<String> schemes() {
        return Set.of("hdfs");
    }

    @Override
    public String toString() {
        return "hadoop";
    }
}
