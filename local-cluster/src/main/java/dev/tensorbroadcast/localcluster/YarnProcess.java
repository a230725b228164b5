package dev.tensorbroadcast.localcluster;

import dev.tensorbroadcast.localcluster.yarn.YarnMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Starts {@link YarnMain} in a JVM of its own and waits for the {@code yarn-site.xml} it writes once it is up. */
final class YarnProcess {
    /** A ResourceManager and the NodeManagers schedule only; the containers are JVMs of their own. */
    private static final String HEAP = "768m";

    private YarnProcess() {}

    /**
     * Starts YARN with its state under {@code directory} (its working directory: Hadoop's mini cluster keeps its
     * state relative to it) and the clients' settings to go to {@code siteFile}.
     */
    static ChildProcess start(
            SparkHome home, Path directory, int nodeManagers, int memoryMib, int cores, Path siteFile) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new LocalClusterException(
                    "Cannot create the YARN directory '" + directory + "': " + e.getMessage(), e);
        }
        // the NodeManagers hand JAVA_HOME on to the containers, which start java from it
        String javaHome = System.getProperty("java.home");
        return ChildProcess.start(
                "YARN",
                DaemonCommands.hostDaemon(
                        HEAP,
                        HdfsProcess.daemonClassPath(home, "YARN"),
                        YarnMain.class.getName(),
                        List.of(
                                Integer.toString(nodeManagers),
                                Integer.toString(memoryMib),
                                Integer.toString(cores),
                                siteFile.toString())),
                Map.of("JAVA_HOME", javaHome),
                directory.resolve("yarn.log"),
                directory);
    }

    /** Waits until the YARN {@code process} has written {@code siteFile}: its NodeManagers have registered. */
    static void await(ChildProcess process, Path siteFile, long deadline, Duration timeout) {
        while (System.nanoTime() < deadline) {
            if (Files.exists(siteFile)) {
                return;
            }
            if (!process.alive()) {
                throw new LocalClusterException("Cannot start YARN: " + process.exited());
            }
            ProcessGroup.pause();
        }
        throw new LocalClusterException("Cannot start YARN: the ResourceManager and its NodeManagers were not up"
                + " within " + timeout.toSeconds() + " s; its log is " + process.log());
    }
}
