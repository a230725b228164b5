package dev.tensorbroadcast.localcluster.s3;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.localcluster.LocalClusterException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A test S3 server's JVM: started with its output appended to a log, ready once its port on 127.0.0.1 takes a
 * connection, stopped with SIGTERM and then SIGKILL. {@code name} ("the S3 server") begins its failures' reasons.
 */
final class ServerProcess {
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final Process process;
    private final String name;
    private final Path log;

    private ServerProcess(Process process, String name, Path log) {
        this.process = process;
        this.name = name;
        this.log = log;
    }

    /** Starts {@code command} and waits until {@code port} listens; a process that exits or stays deaf is stopped. */
    static ServerProcess start(String name, List<String> command, Path log, int port, Duration timeout) {
        requireNonNull(name, "name is null");
        requireNonNull(command, "command is null");
        requireNonNull(log, "log is null");
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new LocalClusterException("Cannot start " + name + ": " + e.getMessage(), e);
        }
        ServerProcess server = new ServerProcess(process, name, log);
        try {
            server.awaitListening(port, timeout);
        } catch (RuntimeException e) {
            server.stop();
            throw e;
        }
        return server;
    }

    @SuppressWarnings("AddressSelection") // an IPv4 literal, not a host name: the servers listen on 127.0.0.1
    private void awaitListening(int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new LocalClusterException("Cannot start " + name + ": " + exitedReason());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LocalClusterException("Cannot start " + name + ": interrupted");
                }
            }
        }
        throw new LocalClusterException("Cannot start " + name + ": it did not listen on 127.0.0.1:" + port + " within "
                + timeout.toSeconds() + " s; its log is " + log);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Why the server is of no use, once its process has exited. */
    String exitedReason() {
        return name + " (pid " + process.pid() + ") exited; its log is " + log;
    }

    /** SIGTERM, then SIGKILL after a grace period; harmless twice. */
    void stop() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
