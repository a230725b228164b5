package dev.tensorbroadcast.localcluster;

import dev.tensorbroadcast.localcluster.hdfs.HdfsMain;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Starts {@link HdfsMain} in a JVM of its own and waits for the URI it reports. */
final class HdfsProcess {
    private static final String HEAP = "512m";

    private HdfsProcess() {}

    static ChildProcess start(SparkHome home, Path directory, int dataNodes) {
        String classPath = daemonClassPath(home, "HDFS");
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new LocalClusterException(
                    "Cannot create the HDFS directory '" + directory + "': " + e.getMessage(), e);
        }
        return ChildProcess.start(
                "HDFS",
                DaemonCommands.hostDaemon(
                        HEAP,
                        classPath,
                        HdfsMain.class.getName(),
                        List.of(
                                directory.resolve("data").toString(),
                                Integer.toString(dataNodes),
                                uriFile(directory).toString())),
                Map.of(),
                directory.resolve("hdfs.log"));
    }

    /**
     * The class path of a JVM that runs Hadoop's daemons ({@code daemon}: HDFS or YARN): the home's hdfs-jars, and
     * this module's classes with their main classes.
     */
    static String daemonClassPath(SparkHome home, String daemon) {
        Path jars = home.hdfsJars()
                .orElseThrow(() -> new LocalClusterException("Cannot start " + daemon
                        + ": the Spark home '" + home.path() + "' has no hdfs-jars directory; use the one the build"
                        + " assembles at local-cluster/target/spark-home"));
        return jars + "/*" + java.io.File.pathSeparator + ownLocation();
    }

    /** The NameNode's URI once the process reported it, or null while it has not. */
    static URI reported(Path directory) {
        Path file = uriFile(directory);
        if (!Files.exists(file)) {
            return null;
        }
        try {
            return new URI(Files.readString(file, StandardCharsets.UTF_8).strip());
        } catch (IOException | URISyntaxException e) {
            throw new LocalClusterException("Cannot read the HDFS URI from '" + file + "': " + e.getMessage(), e);
        }
    }

    /** Waits until the HDFS {@code process} started in {@code directory} has reported its URI. */
    static URI await(ChildProcess process, Path directory, long deadline, Duration timeout) {
        while (System.nanoTime() < deadline) {
            URI uri = reported(directory);
            if (uri != null) {
                return uri;
            }
            if (!process.alive()) {
                throw new LocalClusterException("Cannot start HDFS: " + process.exited());
            }
            ProcessGroup.pause();
        }
        throw new LocalClusterException("Cannot start HDFS: the NameNode was not up within " + timeout.toSeconds()
                + " s; its log is " + process.log());
    }

    private static Path uriFile(Path directory) {
        return directory.resolve("namenode-uri");
    }

    /** This module's classes, a jar or a directory: HdfsMain and YarnMain run from them. */
    static String ownLocation() {
        try {
            return Path.of(HdfsMain.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new LocalClusterException("Cannot locate the local-cluster classes: " + e.getMessage(), e);
        }
    }
}
