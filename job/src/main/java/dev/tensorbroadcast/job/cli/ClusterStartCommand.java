package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.base.ToolVersion;
import dev.tensorbroadcast.localcluster.ClusterMasters;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.ConnectServer;
import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.LocalClusterException;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.WorkDirectories;
import dev.tensorbroadcast.localcluster.YarnCluster;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cluster start}: starts the cluster, records it in the state directory, prints where it is and runs in the
 * foreground until {@code cluster stop} or Ctrl-C, which stop every process it started.
 */
@Command(
        name = "start",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Starts a local Spark standalone cluster, or a YARN one with --yarn, and runs until"
                    + " 'tensor-broadcast cluster stop' or Ctrl-C.",
            "Prints the master URL, the HDFS URI and the file that holds the cluster's secret; for YARN, the"
                    + " HADOOP_CONF_DIR it wrote and a spark-submit line; with --s3, the S3 endpoint, bucket and"
                    + " settings; with --connect, the Spark Connect URL and the file that holds its token."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast cluster start --workers 2 --worker-cores 1 \\",
            "      --worker-memory 2g --hdfs --s3",
            "Two workers of one core and 2 GiB each, HDFS and an S3 server; 'expand --master local-cluster' runs on"
                    + " it.",
            "  tensor-broadcast cluster start --yarn --hdfs",
            "A ResourceManager and two NodeManagers of 2 GiB each, and HDFS; 'expand --master yarn' runs on it.",
            "  tensor-broadcast cluster start --connect",
            "Two workers and a Spark Connect server on 127.0.0.1 that reads format(\"tensorbroadcast\"); clients"
                    + " connect with the printed SPARK_REMOTE."
        })
final class ClusterStartCommand implements Callable<Integer> {
    private static final long WATCH_MILLIS = 1000;

    @Spec
    CommandSpec spec;

    @Option(names = "--workers", paramLabel = "<n>", defaultValue = "2", description = "Workers (default 2).")
    int workers;

    @Option(
            names = "--worker-cores",
            paramLabel = "<n>",
            defaultValue = "1",
            description = "Cores each worker offers (default 1).")
    int workerCores;

    @Option(
            names = "--worker-memory",
            paramLabel = "<size>",
            defaultValue = "2g",
            description = "Memory each worker offers its executors, as 512m or 2g (default 2g).")
    String workerMemory;

    @Option(names = "--hdfs", description = "Also run HDFS: a NameNode and a DataNode on 127.0.0.1.")
    boolean hdfs;

    @Option(
            names = "--s3",
            description = {
                "Also run an S3 server (S3Proxy) on 127.0.0.1 with one bucket, and print"
                        + " the settings that point s3a:// paths at it."
            })
    boolean s3;

    @Option(
            names = "--s3-data",
            paramLabel = "<dir>",
            description = {
                "With --s3: keep the bucket's objects in"
                        + " <dir> (created if missing), which 'cluster stop' leaves in place and a later '--s3 --s3-data <dir>'"
                        + " serves again; without it they are deleted with the cluster's directory when it stops."
            })
    Path s3Data;

    @Option(
            names = "--yarn",
            description = "Run YARN instead of a standalone master: a ResourceManager and"
                    + " --workers NodeManagers offering --worker-cores and --worker-memory each (at least 1g), on 127.0.0.1;"
                    + " 'spark-submit --master yarn' and '--master yarn' run on it.")
    boolean yarn;

    @Option(
            names = "--connect",
            description = {
                "Also run a Spark Connect server on the cluster, on 127.0.0.1, with"
                        + " tensor-broadcast's data source: clients need the token in the file it prints (SPARK_REMOTE="
                        + "\"sc://localhost:<port>/;token=...\"). Standalone only; it holds executors only while queries run."
            })
    boolean connect;

    /** How long the Connect server may take to listen: a driver's start on a busy 2-core machine is 10-30 s. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofMinutes(2);

    /** What the command needs of either kind of cluster while it runs it. */
    private record Running(
            LocalCluster cluster,
            int uiPort,
            List<Long> pids,
            Path workDirectory,
            Supplier<Optional<String>> exitedProcess,
            Optional<Path> hadoopConfDir) {}

    @Override
    public Integer call() throws InterruptedException {
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        Optional<ClusterState> recorded = states.read();
        if (recorded.isPresent() && recorded.get().owner().live().isPresent()) {
            throw new InvalidRequestException("Cannot start a local cluster: one is already running at "
                    + recorded.get().masterUrl() + " (pid "
                    + recorded.get().owner().pid()
                    + "); stop it with 'tensor-broadcast cluster stop'");
        }
        if (recorded.isPresent()) {
            // its starter died without cleaning up: stop what may be left of it first
            ClusterStopCommand.stopLeftovers(recorded.get());
        }
        // the settings are checked before anything is created
        Optional<Path> data = s3Data();
        Function<Path, Running> starter = starter();
        List<Path> connectJars;
        try {
            connectJars = connect ? ourJars() : List.of();
        } catch (LocalClusterException e) {
            throw new ClusterFailedException(e.getMessage(), e);
        }
        Path work = states.create().resolve("run-" + ProcessHandle.current().pid());
        WorkDirectories.delete(work);
        long start = System.nanoTime();
        Running running;
        try {
            running = starter.apply(work);
        } catch (LocalClusterException e) {
            throw new ClusterFailedException(e.getMessage(), e);
        }
        LocalCluster cluster = running.cluster();
        Optional<S3Server> s3Server = Optional.empty();
        if (s3) {
            try {
                s3Server = Optional.of(
                        data.isPresent()
                                ? S3Server.start(SparkHome.locate(), work.resolve("s3"), data.get())
                                : S3Server.start(SparkHome.locate(), work.resolve("s3")));
            } catch (LocalClusterException e) {
                cluster.close();
                throw new ClusterFailedException(e.getMessage(), e);
            }
        }
        Optional<ConnectServer> connectServer = Optional.empty();
        if (connect) {
            try {
                connectServer = Optional.of(ConnectServer.start(
                        SparkHome.locate(),
                        cluster.masterUrl(),
                        cluster.secretFile(),
                        connectJars,
                        running.workDirectory(),
                        CONNECT_TIMEOUT));
            } catch (LocalClusterException e) {
                s3Server.ifPresent(S3Server::close);
                cluster.close();
                throw new ClusterFailedException(e.getMessage(), e);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long owner = ProcessHandle.current().pid();
        List<ClusterState.ClusterProcess> processes = new ArrayList<>(running.pids().stream()
                .map(pid -> ClusterState.ClusterProcess.of(ProcessHandle.of(pid).orElseThrow()))
                .toList());
        s3Server.ifPresent(server -> processes.add(
                ClusterState.ClusterProcess.of(ProcessHandle.of(server.pid()).orElseThrow())));
        connectServer.ifPresent(server -> processes.add(
                ClusterState.ClusterProcess.of(ProcessHandle.of(server.pid()).orElseThrow())));
        states.write(new ClusterState(
                ClusterState.ClusterProcess.of(ProcessHandle.current()),
                cluster.masterUrl(),
                running.uiPort(),
                cluster.workers(),
                cluster.hdfsUri().map(Object::toString).orElse(null),
                cluster.secretFile().toString(),
                work.toString(),
                processes,
                s3Server.map(server -> s3State(server, data)).orElse(null),
                running.hadoopConfDir().map(Path::toString).orElse(null)));

        Optional<S3Server> server = s3Server;
        Optional<ConnectServer> connectRunning = connectServer;
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    shutDown(cluster, server, connectRunning, states, owner, work);
                    stopped.countDown();
                },
                "cluster-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        print(spec.commandLine().getOut(), running, server, data, connectRunning, seconds);

        // runs until a signal's shutdown hook stops the cluster, or a process of it exits
        while (!stopped.await(WATCH_MILLIS, TimeUnit.MILLISECONDS)) {
            Optional<String> exited = running.exitedProcess()
                    .get()
                    .or(() -> server.flatMap(S3Server::exited))
                    .or(() -> connectRunning.flatMap(ConnectServer::exited));
            if (exited.isPresent()) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    continue;
                }
                shutDown(cluster, server, connectRunning, states, owner, work);
                throw new ClusterFailedException("The local cluster stopped: " + exited.get());
            }
        }
        return ExitCode.OK;
    }

    /** The directory of {@code --s3-data}, absolute; refused (exit 2) without {@code --s3} or when it is a file. */
    private Optional<Path> s3Data() {
        if (s3Data == null) {
            return Optional.empty();
        }
        if (!s3) {
            throw new InvalidRequestException("Cannot keep S3 objects in '" + s3Data + "': --s3-data is for the S3"
                    + " server of --s3; give --s3 too");
        }
        Path absolute = s3Data.toAbsolutePath().normalize();
        if (Files.exists(absolute) && !Files.isDirectory(absolute)) {
            throw new InvalidRequestException("Cannot keep S3 objects in '" + s3Data + "': it is a file; give a"
                    + " directory (it is created if missing)");
        }
        return Optional.of(absolute);
    }

    /** What starts the cluster the options ask for in a work directory; a setting out of range is refused at once. */
    private Function<Path, Running> starter() {
        try {
            SparkHome home = SparkHome.locate();
            if (yarn && connect) {
                throw new InvalidRequestException("Cannot start a Spark Connect server on YARN: --connect runs on the"
                        + " standalone cluster; leave out --yarn or --connect");
            }
            if (yarn) {
                YarnCluster.Builder builder = YarnCluster.builder(home)
                        .nodeManagers(workers)
                        .nodeManagerCores(workerCores)
                        .nodeManagerMemory(workerMemory)
                        .hdfs(hdfs);
                return work -> {
                    YarnCluster cluster = builder.workDirectory(work).start();
                    return new Running(
                            cluster,
                            cluster.resourceManagerWebPort(),
                            cluster.pids(),
                            cluster.workDirectory(),
                            cluster::exitedProcess,
                            Optional.of(cluster.hadoopConfDir()));
                };
            }
            ProcessCluster.Builder builder = ProcessCluster.builder(home)
                    .workers(workers)
                    .workerCores(workerCores)
                    .workerMemory(workerMemory)
                    .hdfs(hdfs);
            return work -> {
                ProcessCluster cluster = builder.workDirectory(work).start();
                return new Running(
                        cluster,
                        cluster.masterUiPort(),
                        cluster.pids(),
                        cluster.workDirectory(),
                        cluster::exitedProcess,
                        Optional.empty());
            };
        } catch (IllegalArgumentException | LocalClusterException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    /** The jars the Connect server and its executors need for our data source: the spark-submit jar. */
    private static List<Path> ourJars() {
        String jars = System.getProperty(ClusterMasters.JARS_PROPERTY);
        if (jars == null || jars.isBlank()) {
            throw new LocalClusterException("Cannot start a Spark Connect server with tensor-broadcast's data source:"
                    + " the system property " + ClusterMasters.JARS_PROPERTY + " does not name the spark-submit jar"
                    + " (the tensor-broadcast launcher sets it)");
        }
        return Arrays.stream(jars.split(","))
                .map(String::strip)
                .filter(jar -> !jar.isEmpty())
                .map(Path::of)
                .toList();
    }

    private static void shutDown(
            LocalCluster cluster,
            Optional<S3Server> s3,
            Optional<ConnectServer> connect,
            ClusterStateDirectory states,
            long owner,
            Path work) {
        try {
            // the Connect server first: it is an application of the cluster
            connect.ifPresent(ConnectServer::close);
            s3.ifPresent(S3Server::close);
            cluster.close();
        } finally {
            states.clear(owner);
            try {
                WorkDirectories.delete(work);
            } catch (LocalClusterException e) {
                System.err.println(Reasons.of(e));
            }
        }
    }

    private void print(
            PrintWriter out,
            Running running,
            Optional<S3Server> s3,
            Optional<Path> data,
            Optional<ConnectServer> connect,
            double seconds) {
        LocalCluster cluster = running.cluster();
        if (running.hadoopConfDir().isPresent()) {
            out.printf(
                    "local YARN cluster started in %.1f s: %d NodeManager%s, %d core%s and %s each%n",
                    seconds, workers, workers == 1 ? "" : "s", workerCores, workerCores == 1 ? "" : "s", workerMemory);
        } else {
            out.printf(
                    "local Spark cluster started in %.1f s: %d worker%s, %d core%s and %s each%n",
                    seconds, workers, workers == 1 ? "" : "s", workerCores, workerCores == 1 ? "" : "s", workerMemory);
        }
        out.println("master:      " + cluster.masterUrl());
        out.println("web UI:      http://127.0.0.1:" + running.uiPort());
        cluster.hdfsUri().ifPresent(uri -> out.println("hdfs:        " + uri));
        s3.ifPresent(server -> {
            printS3(out, s3State(server, data));
            out.println("s3 data:     " + server.bucketDirectory()
                    + (data.isPresent()
                            ? " (kept when the cluster stops; --s3-data " + data.get() + " serves it again)"
                            : " (its objects go with the cluster's directory when it stops)"));
        });
        connect.ifPresent(server -> printConnect(out, server));
        if (running.hadoopConfDir().isPresent()) {
            Path conf = running.hadoopConfDir().get();
            out.println("hadoop conf: " + conf);
            out.println("properties:  " + cluster.secretFile());
            out.println("logs:        " + running.workDirectory());
            String jar = Optional.ofNullable(System.getProperty(ClusterMasters.JARS_PROPERTY))
                    .orElse("tensor-broadcast-job-" + ToolVersion.version() + "-spark-submit.jar");
            out.println("submit with: HADOOP_CONF_DIR=" + conf + " spark-submit --master yarn --deploy-mode client"
                    + " --properties-file " + cluster.secretFile() + " --class " + TensorBroadcastCli.class.getName()
                    + " " + jar + " expand ...");
            out.println("run a job with 'tensor-broadcast expand --master yarn ...'; stop with"
                    + " 'tensor-broadcast cluster stop' or Ctrl-C");
        } else {
            out.println("secret file: " + cluster.secretFile());
            out.println("logs:        " + running.workDirectory());
            out.println("run a job with 'tensor-broadcast expand --master local-cluster ...'; stop with"
                    + " 'tensor-broadcast cluster stop' or Ctrl-C");
        }
        out.flush();
    }

    /**
     * Where the Connect server is, and the URL a client pastes; the token is read from its file by the shell
     * ({@code $(cat ...)}), as the S3 key is, so it is neither printed nor kept in a terminal's scrollback.
     */
    static void printConnect(PrintWriter out, ConnectServer server) {
        out.println("connect:     " + server.url() + " (Spark Connect; the token is in " + server.tokenFile() + ")");
        out.println(
                "connect url: export SPARK_REMOTE=\"" + server.url() + "/;token=$(cat " + server.tokenFile() + ")\"");
    }

    private static ClusterState.S3 s3State(S3Server server, Optional<Path> data) {
        return new ClusterState.S3(
                server.endpoint().toString(),
                server.bucket(),
                server.accessKey(),
                server.secretKeyFile().toString(),
                data.map(Path::toString).orElse(null));
    }

    /**
     * Where the S3 server is and the settings that reach it; the secret key is read from its file by the shell
     * ({@code $(cat ...)}), so it is neither printed here nor kept in a terminal's scrollback.
     */
    static void printS3(PrintWriter out, ClusterState.S3 s3) {
        out.println("s3 endpoint: " + s3.endpoint());
        out.println("s3 bucket:   s3a://" + s3.bucket() + "/");
        out.println("s3 settings: (secret key in " + s3.secretKeyFile() + ")");
        out.println(String.join(
                " \\\n",
                s3Settings(s3).stream().map(setting -> "    --conf " + setting).toList()));
        out.println("s3 commands: tensor-broadcast's own need none of these for s3a://" + s3.bucket() + "/ while this"
                + " cluster runs (a --conf given still wins)");
        readyLines(s3).forEach(out::println);
    }

    /**
     * The same server for the AWS CLI, boto3 and pyarrow: the environment variables all three read, and one line each
     * that lists the bucket. S3Proxy answers the checksums the newer SDKs ask for with 501 NotImplemented, so the two
     * checksum variables say to ask only where an operation requires one.
     */
    static List<String> readyLines(ClusterState.S3 s3) {
        String bucket = s3.bucket();
        return List.of(
                "s3 for other tools (the checksum settings because S3Proxy answers the SDKs' checksums with" + " 501):",
                "    export AWS_ENDPOINT_URL=" + s3.endpoint() + " AWS_ACCESS_KEY_ID=" + s3.accessKey()
                        + " AWS_SECRET_ACCESS_KEY=$(cat " + s3.secretKeyFile() + ") AWS_REGION=us-east-1"
                        + " AWS_REQUEST_CHECKSUM_CALCULATION=when_required"
                        + " AWS_RESPONSE_CHECKSUM_VALIDATION=when_required",
                "    aws s3 ls s3://" + bucket + "/",
                "    python3 -c \"import boto3; print(boto3.client('s3').list_objects_v2(Bucket='" + bucket
                        + "').get('KeyCount'))\"",
                // pyarrow's S3FileSystem() takes no endpoint from the environment; an s3:// URI does
                "    python3 -c \"import pyarrow.fs as fs; s3, path = fs.FileSystem.from_uri('s3://" + bucket
                        + "/'); print(s3.get_file_info(fs.FileSelector(path)))\"");
    }

    static List<String> s3Settings(ClusterState.S3 s3) {
        List<String> settings = new ArrayList<>();
        S3Server.hadoopSettingsWithoutKeys(URI.create(s3.endpoint()))
                .forEach((key, value) -> settings.add("spark.hadoop." + key + "=" + value));
        settings.add("spark.hadoop.fs.s3a.access.key=" + s3.accessKey());
        settings.add("spark.hadoop.fs.s3a.secret.key=$(cat " + s3.secretKeyFile() + ")");
        return settings;
    }
}
