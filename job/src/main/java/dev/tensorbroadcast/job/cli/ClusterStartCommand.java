package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.LocalClusterException;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.WorkDirectories;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cluster start}: starts the cluster, records it in the state directory, prints where it is and runs in the
 * foreground until {@code cluster stop} or Ctrl-C, which stop every process it started.
 */
@Command(name = "start",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Starts a local Spark standalone cluster and runs until 'tensor-broadcast cluster stop' or Ctrl-C.",
            "Prints the master URL, the HDFS URI, the file that holds the cluster's secret and, with --s3, the S3"
                    + " endpoint, bucket and settings."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast cluster start --workers 2 --worker-cores 1 \\",
            "      --worker-memory 2g --hdfs --s3",
            "Two workers of one core and 2 GiB each, HDFS and an S3 server; 'expand --master local-cluster' runs on"
                    + " it."
        })
final class ClusterStartCommand implements Callable<Integer> {
    private static final long WATCH_MILLIS = 1000;

    @Spec
    CommandSpec spec;

    @Option(names = "--workers", paramLabel = "<n>", defaultValue = "2", description = "Workers (default 2).")
    int workers;

    @Option(names = "--worker-cores", paramLabel = "<n>", defaultValue = "1",
            description = "Cores each worker offers (default 1).")
    int workerCores;

    @Option(names = "--worker-memory", paramLabel = "<size>", defaultValue = "2g",
            description = "Memory each worker offers its executors, as 512m or 2g (default 2g).")
    String workerMemory;

    @Option(names = "--hdfs", description = "Also run HDFS: a NameNode and a DataNode on 127.0.0.1.")
    boolean hdfs;

    @Option(names = "--s3", description = {"Also run an S3 server (S3Proxy) on 127.0.0.1 with one bucket, and print"
            + " the settings that point s3a:// paths at it."})
    boolean s3;

    @Override
    public Integer call() throws InterruptedException {
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        Optional<ClusterState> recorded = states.read();
        if (recorded.isPresent() && recorded.get().owner().live().isPresent()) {
            throw new InvalidRequestException("Cannot start a local cluster: one is already running at "
                    + recorded.get().masterUrl() + " (pid " + recorded.get().owner().pid()
                    + "); stop it with 'tensor-broadcast cluster stop'");
        }
        if (recorded.isPresent()) {
            // its starter died without cleaning up: stop what may be left of it first
            ClusterStopCommand.stopLeftovers(recorded.get());
        }
        ProcessCluster.Builder builder;
        try {
            builder = ProcessCluster.builder(SparkHome.locate()).workers(workers).workerCores(workerCores)
                    .workerMemory(workerMemory).hdfs(hdfs);
        } catch (IllegalArgumentException | LocalClusterException e) {
            throw new InvalidRequestException(e.getMessage());
        }
        Path work = states.create().resolve("run-" + ProcessHandle.current().pid());
        WorkDirectories.delete(work);
        long start = System.nanoTime();
        ProcessCluster cluster;
        try {
            cluster = builder.workDirectory(work).start();
        } catch (LocalClusterException e) {
            throw new ClusterFailedException(e.getMessage(), e);
        }
        Optional<S3Server> server = Optional.empty();
        if (s3) {
            try {
                server = Optional.of(S3Server.start(SparkHome.locate(), work.resolve("s3")));
            } catch (LocalClusterException e) {
                cluster.close();
                throw new ClusterFailedException(e.getMessage(), e);
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long owner = ProcessHandle.current().pid();
        List<ClusterState.ClusterProcess> processes = new ArrayList<>(cluster.pids().stream()
                .map(pid -> ClusterState.ClusterProcess.of(ProcessHandle.of(pid).orElseThrow())).toList());
        server.ifPresent(running -> processes.add(ClusterState.ClusterProcess.of(ProcessHandle.of(running.pid())
                .orElseThrow())));
        states.write(new ClusterState(ClusterState.ClusterProcess.of(ProcessHandle.current()), cluster.masterUrl(),
                cluster.masterUiPort(), cluster.workers(), cluster.hdfsUri().map(Object::toString).orElse(null),
                cluster.secretFile().toString(), work.toString(), processes, server.map(running ->
                        new ClusterState.S3(running.endpoint().toString(), running.bucket(), running.accessKey(),
                                running.secretKeyFile().toString())).orElse(null)));

        Optional<S3Server> s3Server = server;
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            shutDown(cluster, s3Server, states, owner, work);
            stopped.countDown();
        }, "cluster-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        print(spec.commandLine().getOut(), cluster, s3Server, seconds);

        // runs until a signal's shutdown hook stops the cluster, or a process of it exits
        while (!stopped.await(WATCH_MILLIS, TimeUnit.MILLISECONDS)) {
            Optional<String> exited = cluster.exitedProcess().or(() -> s3Server.flatMap(S3Server::exited));
            if (exited.isPresent()) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    continue;
                }
                shutDown(cluster, s3Server, states, owner, work);
                throw new ClusterFailedException("The local cluster stopped: " + exited.get());
            }
        }
        return ExitCode.OK;
    }

    private static void shutDown(ProcessCluster cluster, Optional<S3Server> s3, ClusterStateDirectory states,
            long owner, Path work) {
        try {
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

    private void print(PrintWriter out, ProcessCluster cluster, Optional<S3Server> s3, double seconds) {
        out.printf("local Spark cluster started in %.1f s: %d worker%s, %d core%s and %s each%n", seconds, workers,
                workers == 1 ? "" : "s", workerCores, workerCores == 1 ? "" : "s", workerMemory);
        out.println("master:      " + cluster.masterUrl());
        out.println("web UI:      http://127.0.0.1:" + cluster.masterUiPort());
        cluster.hdfsUri().ifPresent(uri -> out.println("hdfs:        " + uri));
        out.println("secret file: " + cluster.secretFile());
        out.println("logs:        " + cluster.workDirectory());
        s3.ifPresent(server -> printS3(out, new ClusterState.S3(server.endpoint().toString(), server.bucket(),
                server.accessKey(), server.secretKeyFile().toString())));
        out.println("run a job with 'tensor-broadcast expand --master local-cluster ...'; stop with"
                + " 'tensor-broadcast cluster stop' or Ctrl-C");
        out.flush();
    }

    /**
     * Where the S3 server is and the settings that reach it; the secret key is read from its file by the shell
     * ({@code $(cat ...)}), so it is neither printed here nor kept in a terminal's scrollback.
     */
    static void printS3(PrintWriter out, ClusterState.S3 s3) {
        out.println("s3 endpoint: " + s3.endpoint());
        out.println("s3 bucket:   s3a://" + s3.bucket() + "/");
        out.println("s3 settings: (secret key in " + s3.secretKeyFile() + ")");
        out.println(String.join(" \\\n", s3Settings(s3).stream().map(setting -> "    --conf " + setting)
                .toList()));
    }

    static List<String> s3Settings(ClusterState.S3 s3) {
        List<String> settings = new ArrayList<>();
        S3Server.hadoopSettingsWithoutKeys(URI.create(s3.endpoint())).forEach((key, value) -> settings.add(
                "spark.hadoop." + key + "=" + value));
        settings.add("spark.hadoop.fs.s3a.access.key=" + s3.accessKey());
        settings.add("spark.hadoop.fs.s3a.secret.key=$(cat " + s3.secretKeyFile() + ")");
        return settings;
    }
}
