package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The command lines and environment of the cluster's JVMs. They never hold the secret: that is in the file. */
final class DaemonCommands {
    static final String LOOPBACK = "127.0.0.1";
    /** The module openings Spark's own launcher gives its daemons on JDK 17+. */
    private static final List<String> MODULE_OPTIONS = List.of("-XX:+IgnoreUnrecognizedVMOptions",
            "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
            "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED", "-Dio.netty.tryReflectionSetAccessible=true");
    /** The master and a worker only schedule; the executors a worker starts get the memory it offers. */
    private static final String DAEMON_HEAP = "-Xmx256m";

    private final SparkHome home;
    private final Path propertiesFile;

    DaemonCommands(SparkHome home, Path propertiesFile) {
        this.home = requireNonNull(home, "home is null");
        this.propertiesFile = requireNonNull(propertiesFile, "propertiesFile is null");
    }

    /**
     * A worker launches executors from {@code SPARK_HOME}'s jars for Scala {@code SPARK_SCALA_VERSION};
     * {@code SPARK_LOCAL_IP} keeps every port of the daemons and their executors on loopback.
     */
    Map<String, String> environment() {
        return environment(LOOPBACK);
    }

    /** The environment of a daemon bound to {@code address}, a loopback address. */
    Map<String, String> environment(String address) {
        return Map.of("SPARK_HOME", home.path().toString(), "SPARK_SCALA_VERSION", "2.13",
                "SPARK_LOCAL_IP", address);
    }

    /**
     * The loopback address worker {@code index} binds to: {@code 127.0.0.1} for all, or with {@code distinct}
     * {@code 127.0.0.2}, {@code 127.0.0.3}, ..., so that Spark sees each worker as a host of its own (it never
     * runs a speculative copy of a task on the host of the original). Linux routes all of 127/8 to loopback.
     */
    static String workerAddress(int index, boolean distinct) {
        return distinct ? "127.0.0." + (index + 2) : LOOPBACK;
    }

    List<String> master(int port, int uiPort) {
        return spark("org.apache.spark.deploy.master.Master", "--host", LOOPBACK, "--port", Integer.toString(port),
                "--webui-port", Integer.toString(uiPort), "--properties-file", propertiesFile.toString());
    }

    List<String> worker(String address, String masterUrl, int cores, String memory, Path workDirectory) {
        return spark("org.apache.spark.deploy.worker.Worker", "--host", address, "--port", "0", "--webui-port", "0",
                "--cores", Integer.toString(cores), "--memory", memory, "--work-dir", workDirectory.toString(),
                "--properties-file", propertiesFile.toString(), masterUrl);
    }

    static List<String> java(String heap, String classPath, String mainClass, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(heap);
        command.addAll(MODULE_OPTIONS);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(List.of(arguments));
        return command;
    }

    private List<String> spark(String mainClass, String... arguments) {
        return java(DAEMON_HEAP, home.classPath(), mainClass, arguments);
    }
}
