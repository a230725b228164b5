package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.base.ToolVersion;
import dev.tensorbroadcast.localcluster.ClusterMasters;
import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.LocalClusterException;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.WorkDirectories;
import dev.tensorbroadcast.localcluster.YarnCluster;
import dev.tensorbroadcast.planner.InvalidRequestException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
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
            "Starts a local Spark standalone cluster, or a YARN one with --yarn, and runs until"
                    + " 'tensor-broadcast cluster stop' or Ctrl-C.",
            "Prints the master URL, the HDFS URI and the file that holds the cluster's secret; for YARN, the"
                    + " HADOOP_CONF_DIR it wrote and a spark-submit line."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast cluster start --workers 2 --worker-cores 1 \\",
            "      --worker-memory 2g --hdfs",
            "Two workers of one core and 2 GiB each, and HDFS; 'expand --master local-cluster' runs on it.",
            "  tensor-broadcast cluster start --yarn --hdfs",
            "A ResourceManager and two NodeManagers of 2 GiB each, and HDFS; 'expand --master yarn' runs on it."
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

    @Option(names = "--yarn", description = "Run YARN instead of a standalone master: a ResourceManager and"
            + " --workers NodeManagers offering --worker-cores and --worker-memory each (at least 1g), on 127.0.0.1;"
            + " 'spark-submit --master yarn' and '--master yarn' run on it.")
    boolean yarn;

    /** What the command needs of either kind of cluster while it runs it. */
    private record Running(LocalCluster cluster, int uiPort, List<Long> pids, Path workDirectory,
            Supplier<Optional<String>> exitedProcess, Optional<Path> hadoopConfDir) {}

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
        // the settings are checked before anything is created
        Function<Path, Running> starter = starter();
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
        double seconds = (System.nanoTime() - start) / 1e9;
        long owner = ProcessHandle.current().pid();
        states.write(new ClusterState(ClusterState.ClusterProcess.of(ProcessHandle.current()), cluster.masterUrl(),
                running.uiPort(), cluster.workers(), cluster.hdfsUri().map(Object::toString).orElse(null),
                cluster.secretFile().toString(), work.toString(), running.pids().stream()
                        .map(pid -> ClusterState.ClusterProcess.of(ProcessHandle.of(pid).orElseThrow())).toList(),
                running.hadoopConfDir().map(Path::toString).orElse(null)));

        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            shutDown(cluster, states, owner, work);
            stopped.countDown();
        }, "cluster-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        print(spec.commandLine().getOut(), running, seconds);

        // runs until a signal's shutdown hook stops the cluster, or a process of it exits
        while (!stopped.await(WATCH_MILLIS, TimeUnit.MILLISECONDS)) {
            Optional<String> exited = running.exitedProcess().get();
            if (exited.isPresent()) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    continue;
                }
                shutDown(cluster, states, owner, work);
                throw new ClusterFailedException("The local cluster stopped: " + exited.get());
            }
        }
        return ExitCode.OK;
    }

    /** What starts the cluster the options ask for in a work directory; a setting out of range is refused at once. */
    private Function<Path, Running> starter() {
        try {
            SparkHome home = SparkHome.locate();
            if (yarn) {
                YarnCluster.Builder builder = YarnCluster.builder(home).nodeManagers(workers)
                        .nodeManagerCores(workerCores).nodeManagerMemory(workerMemory).hdfs(hdfs);
                return work -> {
                    YarnCluster cluster = builder.workDirectory(work).start();
                    return new Running(cluster, cluster.resourceManagerWebPort(), cluster.pids(),
                            cluster.workDirectory(), cluster::exitedProcess, Optional.of(cluster.hadoopConfDir()));
                };
            }
            ProcessCluster.Builder builder = ProcessCluster.builder(home).workers(workers).workerCores(workerCores)
                    .workerMemory(workerMemory).hdfs(hdfs);
            return work -> {
                ProcessCluster cluster = builder.workDirectory(work).start();
                return new Running(cluster, cluster.masterUiPort(), cluster.pids(), cluster.workDirectory(),
                        cluster::exitedProcess, Optional.empty());
            };
        } catch (IllegalArgumentException | LocalClusterException e) {
            throw new InvalidRequestException(e.getMessage());
        }
    }

    private static void shutDown(LocalCluster cluster, ClusterStateDirectory states, long owner, Path work) {
        try {
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

    private void print(PrintWriter out, Running running, double seconds) {
        LocalCluster cluster = running.cluster();
        if (running.hadoopConfDir().isPresent()) {
            out.printf("local YARN cluster started in %.1f s: %d NodeManager%s, %d core%s and %s each%n", seconds,
                    workers, workers == 1 ? "" : "s", workerCores, workerCores == 1 ? "" : "s", workerMemory);
        } else {
            out.printf("local Spark cluster started in %.1f s: %d worker%s, %d core%s and %s each%n", seconds,
                    workers, workers == 1 ? "" : "s", workerCores, workerCores == 1 ? "" : "s", workerMemory);
        }
        out.println("master:      " + cluster.masterUrl());
        out.println("web UI:      http://127.0.0.1:" + running.uiPort());
        cluster.hdfsUri().ifPresent(uri -> out.println("hdfs:        " + uri));
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
}
