package dev.tensorbroadcast.localcluster;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A running Spark cluster on this machine, with its optional HDFS: the contract of the three backends,
 * {@link ProcessCluster} (a standalone master and workers as JVMs on 127.0.0.1),
 * {@link dev.tensorbroadcast.localcluster.container.ContainerCluster} (the same in containers on a network of their
 * own) and {@link YarnCluster} (YARN's ResourceManager and NodeManagers on 127.0.0.1). The standalone ones run the
 * same daemon command lines ({@link DaemonCommands}), hold the secret in the same owner-only properties file
 * ({@link ClusterSecret}) and read the master's state the same way ({@link MasterStatus}). Closing a cluster stops
 * everything it started.
 */
public interface LocalCluster extends AutoCloseable {
    /**
     * The master's URL as the cluster's drivers reach it: {@code spark://127.0.0.1:<port>} for processes,
     * {@code spark://master:7077} in containers, {@code yarn} for YARN.
     */
    String masterUrl();

    /**
     * The Spark settings a driver needs to run on this cluster: the master and authentication with the cluster's
     * secret, and for a driver on this machine where it listens (a container's driver is given its host when it is
     * submitted). They hold the secret: keep them off command lines and logs.
     */
    Map<String, String> sparkConf();

    /**
     * The properties file, readable only by its owner, that a driver starts with: it holds a standalone cluster's
     * secret; on YARN, which makes a secret for each application, the drivers' settings.
     */
    Path secretFile();

    /** The HDFS NameNode, {@code hdfs://127.0.0.1:<port>}, when the cluster has one. */
    Optional<URI> hdfsUri();

    /** How many workers the cluster started; {@link #status} tells how many are alive. */
    int workers();

    /** The master's own view of the cluster, from its JSON status page (YARN's: its REST API). */
    MasterStatus status();

    /** Stops every process the cluster started, their children (the executors) included. */
    @Override
    void close();
}
