package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.Reasons;
import dev.tensorbroadcast.planner.InvalidRequestException;
import org.apache.spark.sql.SparkSession;

/**
 * The Spark session a command runs on: the one already running in this JVM (when called from a Spark application
 * or spark-submit), or a new one on {@code --master}, by default an embedded {@code local[*]} without the web UI.
 */
final class SparkSessions {
    static final String DEFAULT_MASTER = "local[*]";

    private SparkSessions() {}

    /** A session and whether this command started it (and so stops it). */
    record Session(SparkSession spark, boolean owned) implements AutoCloseable {
        @Override
        public void close() {
            if (owned) {
                spark.stop();
            }
        }
    }

    static Session obtain(String master) {
        var existing = SparkSession.getActiveSession().isDefined() ? SparkSession.getActiveSession()
                : SparkSession.getDefaultSession();
        if (existing.isDefined() && master == null) {
            return new Session(existing.get(), false);
        }
        SparkSession.Builder builder = SparkSession.builder().appName("tensor-broadcast")
                .config("spark.ui.showConsoleProgress", "false");
        // spark-submit sets the master; only a plain java start needs one
        if (master != null) {
            builder.master(master);
        } else if (!new org.apache.spark.SparkConf().contains("spark.master")) {
            builder.master(DEFAULT_MASTER).config("spark.ui.enabled", "false");
        }
        try {
            return new Session(builder.getOrCreate(), true);
        } catch (Exception e) {
            throw new InvalidRequestException("Cannot start Spark on master '"
                    + (master == null ? DEFAULT_MASTER : master) + "': " + Reasons.of(e)
                    + "; give local[N], spark://host:port, yarn or k8s://...");
        }
    }
}
