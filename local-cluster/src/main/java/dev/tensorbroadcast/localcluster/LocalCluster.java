package dev.tensorbroadcast.localcluster;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A running Spark standalone cluster on this machine, with its optional HDFS: the contract of both backends,
 * {@link ProcessCluster} (JVMs on 127.0.0.1) and {@link dev.tensorbroadcast.localcluster.container.ContainerCluster}
 * (containers on a network of their own). Both run the same daemon command lines ({@link DaemonCommands}), hold the
 * secret in the same owner-only properties file ({@link ClusterSecret}) and read the master's state the same way
 * ({@link MasterStatus}). Closing a cluster stops everything it started.
 */
public interface LocalCluster extends AutoCloseable {
    /**
     * The master's URL as the cluster's drivers reach it: {@code spark://127.0.0.1:<port>} for processes,
     * {@code spark://master:7077} in containers.
     */
    String masterUrl();

    /**
     * The Spark settings a driver needs to run on this cluster: the master and authentication with the cluster's
     * secret, and for a driver on this machine where it listens (a container's driver is given its host when it is
     * submitted). They hold the secret: keep them off command lines and logs.
     */
    Map<String, String> sparkConf();

    /** The properties file, readable only by its owner, that holds the cluster's secret. */
    Path secretFile();

    /** The HDFS NameNode, {@code hdfs://127.0.0.1:<port>}, when the cluster has one. */
    Optional<URI> hdfsUri();

    /** How many workers the cluster started; {@link #status} tells how many are alive. */
    int workers();

    /** The master's own view of the cluster, from its JSON status page. */
    MasterStatus status();

    /** Stops every process the cluster started, their children (the executors) included. */
    @Override
    void close();
}
