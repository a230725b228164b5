package dev.tensorbroadcast.job.pipeline;

/**
 * The integration tests tagged {@link #TAG} run in one JVM ({@link SharedClusterSuiteIT}, one class to failsafe),
 * where those with the same {@code @WithLocalCluster(..., shared = true)} settings share one cluster: one start
 * instead of one per class. They keep their HDFS paths under a directory of their own, as what a class writes there
 * stays for the next one. A tagged class must also be listed in the job module's pom among the classes failsafe does
 * not run on their own.
 */
public final class SharedCluster {
    public static final String TAG = "shared-cluster";

    private SharedCluster() {}
}
