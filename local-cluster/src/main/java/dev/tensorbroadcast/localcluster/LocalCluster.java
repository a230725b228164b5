package dev.tensorbroadcast.localcluster;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A running Spark standalone cluster on this machine, with its optional HDFS. Closing it stops every process it
 * started.
 */
public interface LocalCluster extends AutoCloseable {
    /** The master's URL, {@code spark://127.0.0.1:<port>}. */
    String masterUrl();

    /**
     * The Spark settings a driver needs to run on this cluster: the master, authentication with the cluster's
     * secret, and a driver bound to loopback. They hold the secret: keep them off command lines and logs.
     */
    Map<String, String> sparkConf();

    /** The properties file, readable only by its owner, that holds the cluster's secret. */
    Path secretFile();

    /** The HDFS NameNode, {@code hdfs://127.0.0.1:<port>}, when the cluster has one. */
    Optional<URI> hdfsUri();

    /** How many workers registered with the master. */
    int workers();

    /** The process ids of the master, the workers and the HDFS process: the processes {@link #close} stops. */
    List<Long> pids();

    /** Where the cluster keeps its logs, the workers' directories and the secret file. */
    Path workDirectory();

    /** Stops every process the cluster started, their children (the executors) included. */
    @Override
    void close();
}
