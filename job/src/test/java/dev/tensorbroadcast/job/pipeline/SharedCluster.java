package dev.tensorbroadcast.job.pipeline;

/**
 * The integration tests tagged {@link #TAG} run in one JVM (failsafe's execution {@code shared-cluster} in the job
 * module's pom), where those with the same {@code @WithLocalCluster(..., shared = true)} settings share one cluster:
 * one start instead of one per class. They keep their HDFS paths under a directory of their own, as what a class
 * writes there stays for the next one.
 */
public final class SharedCluster {
    public static final String TAG = "shared-cluster";

    private SharedCluster() {}
}
