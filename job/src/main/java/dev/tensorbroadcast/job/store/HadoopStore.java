package dev.tensorbroadcast.job.store;

import java.util.Arrays;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;

/**
 * Any Hadoop file system with an atomic, cheap rename (HDFS, and any scheme whose connector is on the class path and
 * no other store claims): Hadoop's {@code FileOutputCommitter} stages each attempt's files and renames them at the
 * commits, small objects are staged and renamed, and {@code --overwrite} sets the old dataset aside. Every default of
 * {@link Store} but its settings is this store's.
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

    @Override
    public Set<String> schemes() {
        return Set.of("hdfs");
    }

    @Override
    public String toString() {
        return "hadoop";
    }
}
