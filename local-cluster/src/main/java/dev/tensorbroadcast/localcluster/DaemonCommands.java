package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command lines, environment and settings of a cluster's Spark JVMs, for both backends: they differ only in where
 * {@code java}, Spark's jars and the secret file are ({@link #onHost}, {@link #inImage}). The command lines never hold
 * the secret: that is in the properties file each daemon is given.
 */
public final class DaemonCommands {
    static final String LOOPBACK = "127.0.0.1";
    /** The module openings Spark's own launcher gives its daemons on JDK 17+; Spark gives its executors the same. */
    private static final List<String> MODULE_OPTIONS = List.of(
            "-XX:+IgnoreUnrecognizedVMOptions",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
            "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
            "-Dio.netty.tryReflectionSetAccessible=true");
    /**
     * A daemon's JIT and collector, chosen for starting: C1 only and the serial collector. A cluster's daemons (the
     * master, the workers, HDFS, YARN) start together on a small machine and then mostly wait; C2 compiling their
     * start-up code and G1's threads cost a cluster of two workers and HDFS about 40% of its start's CPU time
     * (docs/benchmarks.md, "Test suite time"). Drivers and executors keep the JVM's defaults: they run the job.
     */
    private static final List<String> DAEMON_JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    /** The master and a worker only schedule; the executors a worker starts get the memory it offers. */
    private static final String DAEMON_HEAP = "256m";
    /** A driver of the container backend: spark-submit in client mode, the application in the same JVM. */
    private static final String DRIVER_HEAP = "768m";

    private final String java;
    private final String classPath;
    private final String sparkHome;
    private final String propertiesFile;

    private DaemonCommands(String java, String classPath, String sparkHome, String propertiesFile) {
        this.java = requireNonNull(java, "java is null");
        this.classPath = requireNonNull(classPath, "classPath is null");
        this.sparkHome = requireNonNull(sparkHome, "sparkHome is null");
        this.propertiesFile = requireNonNull(propertiesFile, "propertiesFile is null");
    }

    /** Daemons started as processes of this machine: this JVM's {@code java}, the jars of {@code home}. */
    static DaemonCommands onHost(SparkHome home, Path propertiesFile) {
        return new DaemonCommands(hostJava(), home.classPath(), home.path().toString(), propertiesFile.toString());
    }

    /**
     * As {@link #onHost(SparkHome, Path)}, with {@code hadoopConfDir} on the class path, where Spark's launcher puts
     * {@code HADOOP_CONF_DIR}: Hadoop's clients read their settings from there.
     */
    static DaemonCommands onHost(SparkHome home, Path propertiesFile, Path hadoopConfDir) {
        return new DaemonCommands(
                hostJava(),
                home.classPath() + File.pathSeparator + hadoopConfDir,
                home.path().toString(),
                propertiesFile.toString());
    }

    /**
     * Daemons started in a container of an image with {@code java} on its path and Spark's jars in
     * {@code sparkHome/jars}; {@code java} expands the {@code jars/*} wildcard itself, so no shell runs.
     */
    public static DaemonCommands inImage(String sparkHome, String propertiesFile) {
        return new DaemonCommands("java", sparkHome + "/jars/*", sparkHome, propertiesFile);
    }

    /**
     * What every daemon's properties file holds besides the secret: no job submission through the unauthenticated
     * REST port, and a port taken between choosing and binding fails the start rather than moving silently.
     */
    public static Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("spark.master.rest.enabled", "false");
        settings.put("spark.port.maxRetries", "0");
        return settings;
    }

    /** A worker launches executors from {@code SPARK_HOME}'s jars for Scala {@code SPARK_SCALA_VERSION}. */
    public Map<String, String> environment() {
        return Map.of("SPARK_HOME", sparkHome, "SPARK_SCALA_VERSION", "2.13");
    }

    /**
     * The environment of a daemon bound to {@code address}: {@code SPARK_LOCAL_IP} keeps every port of the daemon
     * and of the executors it starts on that address.
     */
    Map<String, String> environment(String address) {
        Map<String, String> environment = new LinkedHashMap<>(environment());
        environment.put("SPARK_LOCAL_IP", address);
        return environment;
    }

    /**
     * The loopback address worker {@code index} binds to: {@code 127.0.0.1} for all, or with {@code distinct}
     * {@code 127.0.0.2}, {@code 127.0.0.3}, ..., so that Spark sees each worker as a host of its own (it never
     * runs a speculative copy of a task on the host of the original). Linux routes all of 127/8 to loopback.
     */
    static String workerAddress(int index, boolean distinct) {
        return distinct ? "127.0.0." + (index + 2) : LOOPBACK;
    }

    public List<String> master(String host, int port, int uiPort) {
        return daemon(
                "org.apache.spark.deploy.master.Master",
                List.of(
                        "--host",
                        host,
                        "--port",
                        Integer.toString(port),
                        "--webui-port",
                        Integer.toString(uiPort),
                        "--properties-file",
                        propertiesFile));
    }

    /** A worker on {@code host}, its RPC and UI ports chosen by the system. */
    public List<String> worker(String host, String masterUrl, int cores, String memory, String workDirectory) {
        return daemon(
                "org.apache.spark.deploy.worker.Worker",
                List.of(
                        "--host",
                        host,
                        "--port",
                        "0",
                        "--webui-port",
                        "0",
                        "--cores",
                        Integer.toString(cores),
                        "--memory",
                        memory,
                        "--work-dir",
                        workDirectory,
                        "--properties-file",
                        propertiesFile,
                        masterUrl));
    }

    /** spark-submit in client mode on {@code masterUrl}, authenticated by the properties file; then {@code more}. */
    public List<String> submit(String masterUrl, List<String> more) {
        return submit(masterUrl, "client", more);
    }

    /** spark-submit on {@code masterUrl} in {@code deployMode}, with the properties file; then {@code more}. */
    public List<String> submit(String masterUrl, String deployMode, List<String> more) {
        List<String> arguments = new ArrayList<>(
                List.of("--master", masterUrl, "--deploy-mode", deployMode, "--properties-file", propertiesFile));
        arguments.addAll(more);
        return command(java, DRIVER_HEAP, List.of(), classPath, "org.apache.spark.deploy.SparkSubmit", arguments);
    }

    /**
     * A daemon JVM of this machine that is not one of Spark's (HDFS, YARN): the module openings Spark needs, and the
     * daemons' JIT and collector.
     */
    static List<String> hostDaemon(String heap, String classPath, String mainClass, List<String> arguments) {
        return command(hostJava(), heap, DAEMON_JVM_OPTIONS, classPath, mainClass, arguments);
    }

    private List<String> daemon(String mainClass, List<String> arguments) {
        return command(java, DAEMON_HEAP, DAEMON_JVM_OPTIONS, classPath, mainClass, arguments);
    }

    private static String hostJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static List<String> command(
            String java,
            String heap,
            List<String> jvmOptions,
            String classPath,
            String mainClass,
            List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.add("-Xmx" + heap);
        command.addAll(jvmOptions);
        command.addAll(MODULE_OPTIONS);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(arguments);
        return command;
    }
}
