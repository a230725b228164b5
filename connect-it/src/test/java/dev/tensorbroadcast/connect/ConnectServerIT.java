package dev.tensorbroadcast.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster start --connect} as a remote user meets it: the command line started in a process of its own, once
 * for the class, then Spark's Connect JVM client with the URL and the token file it printed reads a broadcast
 * through the {@code tensorbroadcast} data source and writes it with Spark's own Parquet sink; a client without the
 * token, or with a wrong one, is refused; the server listens on loopback only.
 */
class ConnectServerIT {
    private static final Pattern CONNECT = Pattern.compile(
            "(?m)^connect:     (sc://localhost:(\\d+)) \\(Spark" + " Connect; the token is in (\\S+)\\)$");

    @TempDir
    static Path dir;

    private static Process starter;
    private static Path log;
    private static String url;
    private static int port;
    private static Path tokenFile;

    @BeforeAll
    static void startTheClusterWithAConnectServer() throws Exception {
        log = dir.resolve("start.log");
        starter = cli(log, "cluster", "start", "--workers", "1", "--worker-memory", "1g", "--connect");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline && starter.isAlive() && !read(log).contains("secret file:")) {
            Thread.sleep(200);
        }
        String printed = read(log);
        Matcher connect = CONNECT.matcher(printed);
        assertThat(connect.find()).as(printed).isTrue();
        url = connect.group(1);
        port = Integer.parseInt(connect.group(2));
        tokenFile = Path.of(connect.group(3));
    }

    @AfterAll
    static void stopTheCluster() throws Exception {
        if (starter == null) {
            return;
        }
        try {
            Process stop = cli(dir.resolve("stop.log"), "cluster", "stop");
            stop.waitFor(60, TimeUnit.SECONDS);
            starter.waitFor(60, TimeUnit.SECONDS);
        } finally {
            if (starter.isAlive()) {
                starter.descendants().forEach(ProcessHandle::destroyForcibly);
                starter.destroyForcibly();
            }
        }
    }

    @Test
    void printsTheUrlToPasteAndKeepsTheTokenInAnOwnerOnlyFile() throws IOException {
        assertThat(read(log))
                .contains("connect url: export SPARK_REMOTE=\"" + url + "/;token=$(cat " + tokenFile + ")\"\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
                .isEqualTo("rw-------");
        assertThat(token()).matches("[0-9a-f]{64}").isNotIn(read(log));
    }

    @Test
    void listensOnLoopbackOnly() throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
        }
        Optional<InetAddress> other = otherAddress();
        if (other.isPresent()) {
            assertThatThrownBy(() -> {
                        try (Socket socket = new Socket()) {
                            socket.connect(new InetSocketAddress(other.get(), port), 5000);
                        }
                    })
                    .as("port %d on %s", port, other.get())
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void readsABroadcastThroughTheDataSourceAndWritesItWithSparksParquetSink() throws IOException {
        Path output = dir.resolve("broadcast.parquet");
        try (SparkSession spark =
                SparkSession.builder().remote(url + "/;token=" + token()).create()) {
            Dataset<Row> broadcast = spark.read()
                    .format("tensorbroadcast")
                    .option("input", examples().resolve("row3.npy").toString())
                    .option("dialect", "numpy")
                    .option("shape", "4,3")
                    .load();
            assertThat(broadcast.schema().simpleString()).isEqualTo("struct<index:bigint,tensor:array<float>>");
            broadcast.write().parquet(output.toString());

            try (Stream<Path> files = Files.list(output)) {
                assertThat(files.map(file -> file.getFileName().toString()))
                        .contains("_SUCCESS")
                        .anyMatch(name -> name.endsWith(".parquet"));
            }
            List<String> rows = new ArrayList<>();
            for (Row row :
                    spark.read().parquet(output.toString()).orderBy("index").collectAsList()) {
                rows.add(row.getLong(0) + " " + row.getList(1));
            }
            assertThat(rows)
                    .containsExactly(
                            "0 [1.0, 2.0, 3.0]", "1 [1.0, 2.0, 3.0]", "2 [1.0, 2.0, 3.0]", "3 [1.0, 2.0, 3.0]");
        }
    }

    /**
     * {@code load(dir)} of the Arrow, Parquet and Zarr datasets {@code expand} wrote (the command line, in a JVM of
     * its own): the rows are the broadcast read without writing it, the row shape is in the schema; an incomplete
     * dataset and a bad option are refused in the line a local session refuses them with.
     */
    @Test
    void loadReadsBackArrowParquetAndZarrDatasetsAndRefusesIncompleteOnes() throws Exception {
        String input = examples().resolve("col3.npy").toString();
        try (SparkSession spark =
                SparkSession.builder().remote(url + "/;token=" + token()).create()) {
            Dataset<Row> broadcast = spark.read()
                    .format("tensorbroadcast")
                    .option("input", input)
                    .option("dialect", "numpy")
                    .option("shape", "2,3,4")
                    .load();
            List<String> expected = rows(broadcast);
            assertThat(expected)
                    .containsExactly(
                            "0 [1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0, 3.0]",
                            "1 [1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0, 3.0]");

            for (String format : List.of("arrow", "parquet", "zarr")) {
                Path output = dir.resolve("load-" + format);
                run(
                        "expand",
                        "--input",
                        input,
                        "--dialect",
                        "numpy",
                        "--shape",
                        "2,3,4",
                        "--partitions",
                        "2",
                        "--format",
                        format,
                        "--output",
                        output.toString());

                Dataset<Row> table = spark.read().format("tensorbroadcast").load(output.toString());

                assertThat(table.schema().apply("tensor").metadata().getLongArray("tensor_shape"))
                        .as(format)
                        .containsExactly(3, 4);
                assertThat(rows(table)).as(format).isEqualTo(expected);
            }

            Path incomplete = dir.resolve("load-parquet");
            Files.delete(incomplete.resolve("_SUCCESS"));
            assertRefusedInOneLine(
                    () -> spark.read()
                            .format("tensorbroadcast")
                            .load(incomplete.toString())
                            .collectAsList(),
                    "Cannot read " + incomplete + ": the dataset is incomplete (no _SUCCESS); only a complete"
                            + " dataset can be read");
            assertRefusedInOneLine(
                    () -> spark.read()
                            .format("tensorbroadcast")
                            .option("input", input)
                            .option("shap", "2,3,4")
                            .load()
                            .collectAsList(),
                    "Cannot read a tensorbroadcast table with option 'shap': expected input, dialect, shape, mode,"
                            + " axes-mapping, broadcast-axes, axis, column, row-shape, partitions, partition-size, keep");
        }
    }

    /**
     * Spark Connect hands a refusal on the server to its client as the exception's class name and its message: the
     * one line a local session throws, after the name.
     */
    private static void assertRefusedInOneLine(ThrowableAssert.ThrowingCallable request, String line) {
        assertThatThrownBy(request)
                .satisfies(refusal -> assertThat(refusal.getMessage())
                        .matches("([A-Za-z_$][\\w$]*\\.)+[\\w$]+: " + Pattern.quote(line)));
    }

    /** Runs the command line to its end, which must be a success. */
    private static void run(String... arguments) throws Exception {
        Path output = Files.createTempFile(dir, arguments[0] + "-", ".log");
        Process process = cli(output, arguments);
        assertThat(process.waitFor(120, TimeUnit.SECONDS))
                .as(String.join(" ", arguments))
                .isTrue();
        assertThat(process.exitValue()).as(read(output)).isZero();
    }

    /** The rows in index order, as text. */
    private static List<String> rows(Dataset<Row> table) {
        List<String> rows = new ArrayList<>();
        for (Row row : table.orderBy("index").collectAsList()) {
            rows.add(row.getLong(0) + " " + row.getList(1));
        }
        return rows;
    }

    @Test
    void aClientWithoutTheTokenIsRefused() throws IOException {
        try (SparkSession spark = SparkSession.builder().remote(url).create()) {
            assertThatThrownBy(() -> spark.sql("SELECT 1").collectAsList())
                    .hasMessageContaining("UNAUTHENTICATED")
                    .hasMessageContaining("No authentication token provided");
        }
    }

    @Test
    void aClientWithAWrongTokenIsRefused() throws IOException {
        try (SparkSession spark =
                SparkSession.builder().remote(url + "/;token=" + "0".repeat(64)).create()) {
            assertThatThrownBy(() -> spark.sql("SELECT 1").collectAsList())
                    .hasMessageContaining("UNAUTHENTICATED")
                    .hasMessageContaining("Invalid authentication token");
        }
    }

    private static String token() throws IOException {
        return Files.readString(tokenFile, StandardCharsets.UTF_8).strip();
    }

    private static Path examples() {
        return Path.of(System.getProperty("tensorbroadcast.examples"));
    }

    /** An address of this machine that is not loopback, if it has one. */
    private static Optional<InetAddress> otherAddress() throws IOException {
        return NetworkInterface.networkInterfaces()
                .filter(network -> {
                    try {
                        return network.isUp() && !network.isLoopback();
                    } catch (IOException e) {
                        return false;
                    }
                })
                .flatMap(NetworkInterface::inetAddresses)
                .filter(address -> !address.isLoopbackAddress() && !address.isLinkLocalAddress())
                .findFirst();
    }

    /** The command line in a JVM of its own, as the launcher starts it, its state in this class's directory. */
    private static Process cli(Path output, String... arguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC"));
        command.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(option -> option.startsWith("--add-opens") || option.startsWith("-Dio.netty"))
                .toList());
        for (String property : List.of("tensorbroadcast.spark.home", "tensorbroadcast.spark.jars")) {
            command.add("-D" + property + "=" + System.getProperty(property));
        }
        command.addAll(List.of(
                "-cp",
                System.getProperty("tensorbroadcast.cli.classpath"),
                "dev.tensorbroadcast.job.cli.TensorBroadcastCli"));
        command.addAll(List.of(arguments));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("TENSOR_BROADCAST_STATE", dir.resolve("state").toString());
        return builder.start();
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
