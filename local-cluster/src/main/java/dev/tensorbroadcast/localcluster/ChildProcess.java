package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A process the cluster started, with the file its output goes to. The {@link Process} is kept, not only its handle:
 * its stdin pipe stays open as long as this JVM runs, and the HDFS process exits when it closes.
 */
record ChildProcess(String name, Process process, Path log) {
    ChildProcess {
        requireNonNull(name, "name is null");
        requireNonNull(process, "process is null");
        requireNonNull(log, "log is null");
    }

    /** Starts {@code command} with {@code environment} added, its stdout and stderr appended to {@code log}. */
    static ChildProcess start(String name, List<String> command, Map<String, String> environment, Path log) {
        return start(name, command, environment, log, null);
    }

    /** As {@link #start(String, List, Map, Path)}, in {@code directory} (this JVM's when null). */
    static ChildProcess start(
            String name, List<String> command, Map<String, String> environment, Path log, Path directory) {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().putAll(environment);
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        try {
            return new ChildProcess(name, builder.start(), log);
        } catch (IOException e) {
            throw new LocalClusterException("Cannot start the " + name + ": " + e.getMessage(), e);
        }
    }

    /** Sends {@code line} to the process's stdin: the YARN process takes commands there. */
    void tell(String line) {
        try {
            var in = process.getOutputStream();
            in.write((line + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            in.flush();
        } catch (IOException e) {
            throw new LocalClusterException(
                    "Cannot tell the " + name + " '" + line + "': " + e.getMessage() + "; its log is " + log, e);
        }
    }

    ProcessHandle handle() {
        return process.toHandle();
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Why the process is of no use, naming its log: for errors. */
    String exited() {
        return "the " + name + " (pid " + pid() + ") exited; its log is " + log;
    }
}
