package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.localcluster.ClusterMasters;
import dev.tensorbroadcast.localcluster.SparkHome;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The command line started in a JVM of its own, as a user starts it, with its output in a log file. */
final class CliProcess {
    private CliProcess() {}

    /** Starts the command line; arguments starting with -D are JVM options. */
    static Process start(Map<String, String> environment, Path log, String... arguments) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(arguments)).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        return builder.start();
    }

    /** The command that runs the command line with {@code arguments}; those starting with -D are JVM options. */
    static List<String> command(String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // the module openings this JVM got from the build
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(option -> option.startsWith("--add-opens") || option.startsWith("-XX:")
                        || option.startsWith("-Dio.netty"))
                .forEach(command::add);
        command.add("-D" + SparkHome.PROPERTY + "=" + SparkHome.locate().path());
        command.add("-D" + ClusterMasters.JARS_PROPERTY + "=" + System.getProperty(ClusterMasters.JARS_PROPERTY));
        List<String> cliArguments = new ArrayList<>();
        for (String argument : arguments) {
            (argument.startsWith("-D") ? command : cliArguments).add(argument);
        }
        command.add("-cp");
        command.add(Optional.ofNullable(System.getProperty("tensorbroadcast.cli.classpath")).orElseThrow());
        command.add(TensorBroadcastCli.class.getName());
        command.addAll(cliArguments);
        return command;
    }

    static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }
}
