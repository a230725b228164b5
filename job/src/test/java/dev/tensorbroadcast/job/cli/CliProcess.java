package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.localcluster.ClusterMasters;
import dev.tensorbroadcast.localcluster.SparkHome;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The command line started in a JVM of its own, as a user starts it, with its output in a log file.
 *
 * <p>The JVM is tuned for starting, as the {@code tensor-broadcast} launcher tunes its own: C1 only and the serial
 * GC (a test's run is seconds of start-up and a small job, where C2's compiler threads only take the shared cores),
 * and class-data sharing from an archive of a training run, made once per build next to the jar. A small expand then
 * costs about 2.4 s of CPU instead of about 8 (docs/benchmarks.md, "Test suite time"); what the command does and
 * prints is the same.
 */
final class CliProcess {
    /** What the JVM of every run gets besides the module openings. */
    private static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
    /** A mismatched or unreadable archive only costs the speed-up, and must not add a line to what a run prints. */
    private static final List<String> QUIET_CDS = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

    private static Optional<Path> archive;

    private CliProcess() {}

    /** Starts the command line; arguments starting with -D are JVM options. */
    static Process start(Map<String, String> environment, Path log, String... arguments) throws IOException {
        ProcessBuilder builder =
                new ProcessBuilder(command(arguments)).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        return builder.start();
    }

    /** The command that runs the command line with {@code arguments}; those starting with -D are JVM options. */
    static List<String> command(String... arguments) {
        List<String> command = jvm();
        archive().ifPresent(file -> {
            command.add("-XX:SharedArchiveFile=" + file);
            command.addAll(QUIET_CDS);
        });
        List<String> cliArguments = new ArrayList<>();
        for (String argument : arguments) {
            (argument.startsWith("-D") ? command : cliArguments).add(argument);
        }
        command.add("-cp");
        command.add(classPath());
        command.add(TensorBroadcastCli.class.getName());
        command.addAll(cliArguments);
        return command;
    }

    /** {@code java} with the module openings this JVM got from the build and the start-up tuning. */
    private static List<String> jvm() {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(option -> option.startsWith("--add-opens")
                        || option.startsWith("-XX:")
                        || option.startsWith("-Dio.netty"))
                .forEach(command::add);
        command.addAll(QUICK_START);
        command.add("-D" + SparkHome.PROPERTY + "=" + SparkHome.locate().path());
        command.add("-D" + ClusterMasters.JARS_PROPERTY + "=" + System.getProperty(ClusterMasters.JARS_PROPERTY));
        return command;
    }

    private static String classPath() {
        return Optional.ofNullable(System.getProperty("tensorbroadcast.cli.classpath"))
                .orElseThrow();
    }

    /**
     * The class-data sharing archive next to the command line's jar, made by a small expand when it is missing or
     * older than the jar; empty when it cannot be made (the runs then load their classes as usual).
     */
    private static synchronized Optional<Path> archive() {
        if (archive == null) {
            archive = makeArchive();
        }
        return archive;
    }

    /**
     * Under a lock on a file next to the archive: the IT classes run in two JVMs at once, and the second to want the
     * archive waits for the first's instead of making one of its own (about 14 CPU-s).
     */
    private static Optional<Path> makeArchive() {
        Path jar = Path.of(classPath().split(java.io.File.pathSeparator)[0]);
        try (FileChannel channel = FileChannel.open(
                jar.resolveSibling("cli-test.jsa.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock lock = channel.lock();
            try {
                return makeArchive(jar, jar.resolveSibling("cli-test.jsa"));
            } finally {
                lock.release();
            }
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> makeArchive(Path jar, Path file) {
        Path work = null;
        try {
            if (Files.isRegularFile(file)
                    && Files.getLastModifiedTime(file).compareTo(Files.getLastModifiedTime(jar)) > 0) {
                return Optional.of(file);
            }
            work = Files.createTempDirectory(jar.getParent(), "cli-test-jsa-");
            Path made = work.resolve("archive.jsa");
            List<String> command = jvm();
            command.add("-XX:ArchiveClassesAtExit=" + made);
            command.addAll(QUIET_CDS);
            command.addAll(List.of(
                    "-cp",
                    classPath(),
                    TensorBroadcastCli.class.getName(),
                    "expand",
                    "--input",
                    NpyFiles.int32(work.resolve("row.npy"), new long[] {1, 64}).toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    "64,64",
                    "--partitions",
                    "2",
                    "--output",
                    work.resolve("out").toString(),
                    "--master",
                    "local[2]"));
            Process training = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(work.resolve("training.log").toFile())
                    .start();
            if (!training.waitFor(300, TimeUnit.SECONDS)) {
                training.destroyForcibly();
                return Optional.empty();
            }
            if (training.exitValue() != 0 || !Files.isRegularFile(made) || Files.size(made) == 0) {
                return Optional.empty();
            }
            Files.move(made, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return Optional.of(file);
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            if (work != null) {
                delete(work);
            }
        }
    }

    private static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // a temporary directory under target/ left behind costs nothing
        }
    }

    static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }
}
