package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Writer;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * A Spark Connect server on a running standalone cluster: a driver started with spark-submit (Spark's own
 * {@code SparkConnectServer}, from the home's {@code connect-jars/}), listening on 127.0.0.1 only, that refuses
 * every client without its token. The token is a fresh random one, kept in an owner-only file ({@link #tokenFile})
 * and handed to the server in its environment, so it shows on no command line. The jars given are the server's and
 * its executors' ({@code --jars}): our data source is found there. Executors are allocated while queries run and
 * given back after a short idle time, so the cluster stays free for other jobs between a client's queries.
 */
public final class ConnectServer implements AutoCloseable {
    /** The name of the owner-only file with the token, in the directory the server is started in. */
    public static final String TOKEN_FILE = "spark-connect-token";
    /** Where Spark's Connect server reads the token from when {@code spark.connect.authenticate.token} is unset. */
    static final String TOKEN_ENVIRONMENT = "SPARK_CONNECT_AUTHENTICATE_TOKEN";

    static final String SERVER_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer";
    /** What the server logs once its gRPC port is bound. */
    private static final String STARTED = "Spark Connect server started at";

    private static final int TOKEN_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final int port;
    private final Path tokenFile;
    private final ChildProcess process;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ConnectServer(int port, Path tokenFile, ChildProcess process) {
        this.port = port;
        this.tokenFile = tokenFile;
        this.process = process;
    }

    /**
     * Starts a server on the cluster at {@code masterUrl}, whose daemons' properties file (the secret) is
     * {@code secretFile}, with {@code jars} on its and its executors' class path; its token file and log go to
     * {@code directory}, which must exist. Returns once the server listens, or fails within {@code timeout}.
     */
    public static ConnectServer start(
            SparkHome home, String masterUrl, Path secretFile, List<Path> jars, Path directory, Duration timeout) {
        requireNonNull(home, "home is null");
        requireNonNull(masterUrl, "masterUrl is null");
        requireNonNull(secretFile, "secretFile is null");
        requireNonNull(directory, "directory is null");
        requireNonNull(timeout, "timeout is null");
        List<Path> allJars = new ArrayList<>(connectJars(home));
        allJars.addAll(jars);
        Path tokenFile = directory.resolve(TOKEN_FILE);
        String token = createToken(tokenFile);
        int port = FreePorts.next();
        DaemonCommands commands = DaemonCommands.onHost(home, secretFile);
        Map<String, String> environment = new LinkedHashMap<>(commands.environment(DaemonCommands.LOOPBACK));
        environment.put(TOKEN_ENVIRONMENT, token);
        Path log = directory.resolve("connect-server.log");
        ChildProcess process = ChildProcess.start(
                "Spark Connect server", commands.submit(masterUrl, arguments(port, allJars)), environment, log);
        ConnectServer server = new ConnectServer(port, tokenFile, process);
        try {
            server.awaitStarted(timeout);
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** The spark-submit arguments after the master: the server class, its jars and settings, no application jar. */
    static List<String> arguments(int port, List<Path> jars) {
        Map<String, String> conf = new LinkedHashMap<>(ProcessCluster.loopbackDriver());
        conf.put("spark.connect.grpc.binding.address", DaemonCommands.LOOPBACK);
        conf.put("spark.connect.grpc.binding.port", Integer.toString(port));
        // executors only while a client's queries run: the server is an application that would otherwise hold
        // every worker's cores for as long as it runs, and 'expand --master local-cluster' would wait for them
        conf.put("spark.dynamicAllocation.enabled", "true");
        conf.put("spark.dynamicAllocation.shuffleTracking.enabled", "true");
        conf.put("spark.dynamicAllocation.minExecutors", "0");
        conf.put("spark.dynamicAllocation.executorIdleTimeout", "15s");
        List<String> arguments = new ArrayList<>(List.of(
                "--class",
                SERVER_CLASS,
                "--name",
                "Spark Connect server",
                "--jars",
                String.join(",", jars.stream().map(Path::toString).toList())));
        conf.forEach((key, value) -> {
            arguments.add("--conf");
            arguments.add(key + "=" + value);
        });
        // spark-submit's name for "no application jar": the server's class is in the jars above
        arguments.add("spark-internal");
        return arguments;
    }

    /** The Spark Connect jars of {@code home}: the server and the pipelines module it needs. */
    static List<Path> connectJars(SparkHome home) {
        Path directory = home.path().resolve("connect-jars");
        List<Path> jars = List.of();
        if (Files.isDirectory(directory)) {
            try (Stream<Path> files = Files.list(directory)) {
                jars = files.filter(file -> file.getFileName().toString().endsWith(".jar"))
                        .sorted()
                        .toList();
            } catch (IOException e) {
                throw new LocalClusterException(
                        "Cannot list the Spark Connect jars in '" + directory + "': " + e.getMessage(), e);
            }
        }
        if (jars.stream().noneMatch(jar -> jar.getFileName().toString().startsWith("spark-connect_"))) {
            throw new LocalClusterException("Cannot start a Spark Connect server: the Spark home '" + home.path()
                    + "' has no connect-jars/spark-connect_*.jar; use the one the build assembles at"
                    + " local-cluster/target/spark-home");
        }
        return jars;
    }

    /**
     * The URL a client connects to, without the token: {@code sc://localhost:<port>}. Named {@code localhost}, not
     * 127.0.0.1, where the server listens: Spark's Connect clients send a token over a plain connection only to a host
     * of that name, and otherwise speak TLS, which this server does not.
     */
    public URI url() {
        return URI.create("sc://localhost:" + port);
    }

    public int port() {
        return port;
    }

    /** The owner-only file that holds the token, alone on its line. */
    public Path tokenFile() {
        return tokenFile;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return process.log();
    }

    /** Why the server is of no use when it exited, naming its log. */
    public Optional<String> exited() {
        return process.alive() ? Optional.empty() : Optional.of(process.exited());
    }

    /** The token in a file {@link #start} wrote. */
    public static String readToken(Path file) {
        requireNonNull(file, "file is null");
        try {
            String token = Files.readString(file, StandardCharsets.UTF_8).strip();
            if (token.isEmpty()) {
                throw new LocalClusterException(
                        "Cannot read the Spark Connect token file '" + file + "': it is" + " empty");
            }
            return token;
        } catch (IOException e) {
            throw new LocalClusterException("Cannot read the Spark Connect token file '" + file + "': " + e, e);
        }
    }

    /** Stops the server and the executors it holds. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<ProcessHandle> alive = ProcessTrees.stop(List.of(process.handle()), STOP_GRACE);
        if (!alive.isEmpty()) {
            throw new LocalClusterException("Cannot stop the Spark Connect server: processes "
                    + alive.stream().map(ProcessHandle::pid).toList() + " are still alive after SIGKILL");
        }
    }

    private void awaitStarted(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.alive()) {
                throw new LocalClusterException("Cannot start the Spark Connect server: " + process.exited());
            }
            if (logged(STARTED)) {
                return;
            }
            ProcessGroup.pause();
        }
        throw new LocalClusterException("Cannot start the Spark Connect server: it did not listen on port " + port
                + " within " + timeout.toSeconds() + " s; its log is " + process.log());
    }

    private boolean logged(String text) {
        try (Stream<String> lines = Files.lines(process.log(), StandardCharsets.UTF_8)) {
            return lines.anyMatch(line -> line.contains(text));
        } catch (IOException | java.io.UncheckedIOException e) {
            return false;
        }
    }

    /** Writes a fresh token to a new file readable and writable by its owner only; fails if the file exists. */
    private static String createToken(Path file) {
        byte[] bytes = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(bytes);
        String token = HexFormat.of().formatHex(bytes);
        try (FileChannel channel = FileChannel.open(
                        file,
                        Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Writer writer = Channels.newWriter(channel, StandardCharsets.UTF_8)) {
            writer.write(token + "\n");
        } catch (IOException e) {
            throw new LocalClusterException("Cannot write the Spark Connect token file '" + file + "': " + e, e);
        }
        return token;
    }
}
