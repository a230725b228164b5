package dev.tensorbroadcast.localcluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The Spark settings of a {@code --master}: {@code local-cluster} (or the {@code spark://} URL of the running local
 * cluster) gets that cluster's URL and secret, read from the state {@code cluster start} recorded; {@code yarn} (or
 * {@code local-cluster} when the running local cluster is a YARN one) gets that cluster's Hadoop settings as
 * {@code spark.hadoop.*} and its drivers' properties, as spark-submit would with {@code HADOOP_CONF_DIR}; with no
 * local YARN cluster running, {@code yarn} is left to Spark. A cluster master gets the spark-submit jar the launcher
 * names, so its executors load our classes as under spark-submit.
 */
public final class ClusterMasters {
    public static final String LOCAL_CLUSTER = "local-cluster";
    /** The system property with the jars executors need: the launcher sets it to the spark-submit jar. */
    public static final String JARS_PROPERTY = "tensorbroadcast.spark.jars";

    private ClusterMasters() {}

    /** The settings for {@code master}, {@code spark.master} first. */
    public static Map<String, String> settings(String master) {
        Map<String, String> settings = new LinkedHashMap<>();
        Optional<ClusterState> local = runningLocalCluster(master);
        String url = local.map(ClusterState::masterUrl).orElse(master);
        settings.put("spark.master", url);
        if (local.isPresent() && local.get().yarn()) {
            try {
                settings.putAll(YarnCluster.driverConf(
                        local.get().hadoopConf().orElseThrow(), local.get().secretPath()));
            } catch (LocalClusterException e) {
                throw new ClusterStateException("Cannot run on the local YARN cluster: " + e.getMessage());
            }
        } else if (local.isPresent()) {
            try {
                settings.putAll(ProcessCluster.driverConf(local.get().secretPath()));
            } catch (LocalClusterException e) {
                throw new ClusterStateException(
                        "Cannot run on the local cluster at " + local.get().masterUrl() + ": " + e.getMessage());
            }
        }
        String jars = System.getProperty(JARS_PROPERTY);
        // local[N] runs in this JVM, which has our classes
        if (jars != null && !jars.isBlank() && !url.startsWith("local")) {
            settings.put("spark.jars", jars);
        }
        return settings;
    }

    private static Optional<ClusterState> runningLocalCluster(String master) {
        boolean named = master.equals(LOCAL_CLUSTER);
        if (!named && !master.startsWith("spark://") && !master.equals(YarnCluster.MASTER)) {
            return Optional.empty();
        }
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        Optional<ClusterState> running =
                states.read().filter(state -> state.owner().live().isPresent());
        if (named && running.isEmpty()) {
            throw new ClusterStateException("Cannot run on the local cluster: none is running (nothing running is"
                    + " recorded in " + states.path() + "); start one with 'tensor-broadcast cluster start'");
        }
        return named ? running : running.filter(state -> state.masterUrl().equals(master));
    }
}
