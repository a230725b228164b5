package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.localcluster.ClusterMasters;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.sql.classic.SparkSession;

/**
 * The Spark session a command runs on: the one already running in this JVM (when called from a Spark application
 * or spark-submit), or a new one on {@code --master}, by default an embedded {@code local[*]} without the web UI.
 */
final class SparkSessions {
    static final String DEFAULT_MASTER = "local[*]";
    /** Overrides {@link #REGISTRATION_TIMEOUT} in seconds; tests shorten it. */
    static final String REGISTRATION_TIMEOUT_PROPERTY = "tensorbroadcast.spark.registration.timeout";
    /**
     * How long a standalone master may take to accept the driver. A healthy one takes a second; one that refuses the
     * driver's authentication never answers, and Spark itself would wait a minute before giving up.
     */
    private static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(20);
    /** How long a master's port may take to accept a connection before it counts as not answering. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Set by {@code main}: this JVM was started for the command alone, so no Spark application runs in it unless
     * spark-submit started it (and set {@code spark.master}). Spark's session classes are then not loaded just to
     * find that no session exists, which costs a small job a good part of its run (docs/benchmarks.md, issue 28).
     */
    private static volatile boolean ownJvm;

    private SparkSessions() {}

    /** This JVM runs the command line's {@code main}. */
    static void ownJvm() {
        ownJvm = true;
    }

    /** Whether a Spark application may run in this JVM: one that called the command line, or spark-submit's. */
    static boolean mayRun() {
        return !ownJvm || System.getProperty("spark.master") != null;
    }

    /** The session running in this JVM: the thread's active one, else the default one. */
    static Optional<SparkSession> running() {
        var existing = SparkSession.getActiveSession().isDefined()
                ? SparkSession.getActiveSession()
                : SparkSession.getDefaultSession();
        return existing.isDefined() ? Optional.of(existing.get()) : Optional.empty();
    }

    /** A session and whether this command started it (and so stops it). */
    record Session(SparkSession spark, boolean owned) implements AutoCloseable {
        @Override
        public void close() {
            if (owned) {
                spark.stop();
            }
        }
    }

    /**
     * The session on {@code master} with the user's {@code conf} ({@code --conf}) over the master's settings. The
     * settings' values are never printed: they may hold secrets.
     */
    static Session obtain(String master, Map<String, String> conf) {
        conf.keySet().forEach(SparkSessions::requireSettable);
        // the classic (in-JVM) session's own companion: org.apache.spark.sql.SparkSession.builder() looks it up by
        // Scala reflection first, about a second of CPU at every run's start (docs/benchmarks.md, issue 28)
        var existing = SparkSession.getActiveSession().isDefined()
                ? SparkSession.getActiveSession()
                : SparkSession.getDefaultSession();
        if (existing.isDefined() && master == null) {
            if (!conf.isEmpty()) {
                throw new InvalidRequestException("Cannot apply --conf " + String.join(", ", conf.keySet())
                        + ": this command runs in a Spark application that has started, whose settings are fixed;"
                        + " give them to spark-submit --conf instead");
            }
            return new Session(existing.get(), false);
        }
        SparkSession.Builder builder =
                SparkSession.builder().appName("tensor-broadcast").config("spark.ui.showConsoleProgress", "false");
        org.apache.spark.SparkConf submitted = new org.apache.spark.SparkConf();
        if (!submitted.contains(HEARTBEAT)) {
            // running tasks report their written batches with heartbeats: every 2 s, not 10, moves the progress line
            builder.config(HEARTBEAT, "2s");
        }
        if (!submitted.contains(DIRECT_RESULT)) {
            // a rows-kept reduce task returns up to 16 MiB of sums: above 1 MiB Spark parks a result in the block
            // manager and the driver fetches it again, a third of such a run's CPU (docs/benchmarks.md, issue 28)
            builder.config(DIRECT_RESULT, "64m");
        }
        String url = null;
        Map<String, String> masters = Map.of();
        // spark-submit sets the master; only a plain java start needs one
        if (master != null) {
            Map<String, String> settings = ClusterMasters.settings(master);
            masters = settings;
            settings.forEach(builder::config);
            url = settings.get("spark.master");
        } else if (!submitted.contains("spark.master")) {
            builder.master(DEFAULT_MASTER).config("spark.ui.enabled", "false");
        }
        // the running local cluster's S3 server, for its bucket, under --conf (a started session's are fixed); the
        // site files of HADOOP_CONF_DIR under both and under the master's own (a local YARN cluster's)
        EnvironmentSettings.ofProcess()
                .underForSpark(LocalS3Settings.under(conf), masters.keySet())
                .forEach(builder::config);
        try {
            return new Session(
                    url != null && url.startsWith("spark://") ? registered(builder, url) : builder.getOrCreate(), true);
        } catch (InvalidRequestException e) {
            throw e;
        } catch (Exception e) {
            String shown = master == null ? DEFAULT_MASTER : master;
            String reason = Reasons.of(e);
            // the master is right, the request too large for it: naming other masters would mislead
            YarnContainerLimits.explain(reason).ifPresent(tooLarge -> {
                throw new InvalidRequestException("Cannot start Spark on master '" + shown + "': " + tooLarge);
            });
            throw new InvalidRequestException("Cannot start Spark on master '" + shown + "': " + reason
                    + "; give local[N], spark://host:port, local-cluster, yarn or k8s://...");
        }
    }

    private static final String HEARTBEAT = "spark.executor.heartbeatInterval";
    private static final String DIRECT_RESULT = "spark.task.maxDirectResultSize";

    /** A {@code --conf} key must name a Spark setting other than the master, which has an option of its own. */
    private static void requireSettable(String key) {
        if (key.equals("spark.master")) {
            throw new InvalidRequestException("Cannot apply --conf spark.master: give the master with --master");
        }
        if (!key.startsWith("spark.") || key.length() == "spark.".length()) {
            throw new InvalidRequestException("Cannot apply --conf '" + key + "': it is not a Spark setting; give"
                    + " spark.<name>=<value>, as spark-submit --conf takes it");
        }
    }

    /**
     * A session on a standalone master, which must accept this driver in time: Spark would block in
     * {@code getOrCreate} for a minute when the master refuses the driver's authentication, then stop.
     */
    private static SparkSession registered(SparkSession.Builder builder, String url) throws Exception {
        requireReachable(url);
        FutureTask<SparkSession> start = new FutureTask<>(builder::getOrCreate);
        Thread thread = new Thread(start, "tensor-broadcast-spark-start");
        thread.setDaemon(true);
        thread.start();
        Duration timeout = registrationTimeout();
        try {
            return start.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new InvalidRequestException("Cannot start Spark on master '" + url + "': the master did not accept"
                    + " this driver within " + timeout.toSeconds() + " s; it is not running there, or it refused the"
                    + " driver's authentication (spark.authenticate.secret missing or not the cluster's)");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /**
     * A host that does not resolve or a port where nothing listens is said at once, with its reason, instead of after
     * the registration timeout, which can only guess. Each master of a comma-separated HA list is tried.
     */
    private static void requireReachable(String url) {
        String hosts = url.substring("spark://".length());
        List<String> reasons = new ArrayList<>();
        @SuppressWarnings("StringSplitter") // an empty entry after the last comma has nothing to try
        String[] hostPorts = hosts.split(",");
        for (String hostPort : hostPorts) {
            int colon = hostPort.lastIndexOf(':');
            String host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            int port;
            try {
                port = colon < 0 ? 7077 : Integer.parseInt(hostPort.substring(colon + 1));
            } catch (NumberFormatException e) {
                return;
            }
            try (Socket socket = new Socket()) {
                socket.connect(
                        new InetSocketAddress(InetAddress.getByName(host), port), (int) PROBE_TIMEOUT.toMillis());
                return;
            } catch (UnknownHostException e) {
                reasons.add("host '" + host + "' does not resolve");
            } catch (IOException e) {
                reasons.add("nothing answers on " + host + ":" + port + " (" + Reasons.of(e) + ")");
            }
        }
        throw new InvalidRequestException("Cannot start Spark on master '" + url + "': " + String.join("; ", reasons)
                + "; start the master, or give local[N], local-cluster, yarn or k8s://...");
    }

    private static Duration registrationTimeout() {
        String configured = System.getProperty(REGISTRATION_TIMEOUT_PROPERTY);
        return configured == null ? REGISTRATION_TIMEOUT : Duration.ofSeconds(Long.parseLong(configured));
    }
}
