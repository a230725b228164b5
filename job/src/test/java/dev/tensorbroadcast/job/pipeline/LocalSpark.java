package dev.tensorbroadcast.job.pipeline;

import org.apache.spark.sql.SparkSession;

/**
 * The tests' Spark: local, two threads, a failed task retried once (local[2,2]), no UI, heartbeats every second (a
 * running task's progress comes with them).
 */
public final class LocalSpark {
    private LocalSpark() {}

    public static SparkSession start() {
        return SparkSession.builder()
                .master("local[2,2]")
                .appName("tensor-broadcast-test")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.executor.heartbeatInterval", "1s")
                .getOrCreate();
    }
}
