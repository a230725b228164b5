package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A Spark standalone cluster of separate JVMs on 127.0.0.1: a master, N workers (which start executor JVMs for each
 * application) and optionally an HDFS NameNode with DataNodes. Authentication is on with a fresh secret, the
 * master's REST submission server is off, and every port is on loopback. {@link #close} stops every process it
 * started, and so does a shutdown hook if the JVM ends first.
 *
 * <pre>{@code
 * try (LocalCluster cluster = ProcessCluster.builder(SparkHome.locate()).workers(2).start()) {
 *     SparkSession spark = SparkSession.builder().config(cluster.sparkConf()).getOrCreate();
 * }
 * }</pre>
 */
public final class ProcessCluster implements LocalCluster {
    /** The name of the properties file with the secret in the work directory. */
    public static final String SECRET_FILE = "spark-cluster.properties";

    private static final long IDLE_POLL_MILLIS = 100;

    private final String masterUrl;
    private final int masterUiPort;
    private final Path workDirectory;
    private final Path secretFile;
    private final Optional<URI> hdfsUri;
    private final int workers;
    private final ProcessGroup processes;
    private final boolean temporary;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ProcessCluster(
            String masterUrl,
            int masterUiPort,
            Path workDirectory,
            Path secretFile,
            Optional<URI> hdfsUri,
            int workers,
            ProcessGroup processes,
            boolean temporary) {
        this.masterUrl = masterUrl;
        this.masterUiPort = masterUiPort;
        this.workDirectory = workDirectory;
        this.secretFile = secretFile;
        this.hdfsUri = hdfsUri;
        this.workers = workers;
        this.processes = processes;
        this.temporary = temporary;
    }

    public static Builder builder(SparkHome home) {
        return new Builder(home);
    }

    @Override
    public String masterUrl() {
        return masterUrl;
    }

    /** The port of the master's web UI on 127.0.0.1, where {@link MasterStatus} reads its status. */
    public int masterUiPort() {
        return masterUiPort;
    }

    @Override
    public Map<String, String> sparkConf() {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.master", masterUrl);
        conf.putAll(driverConf(secretFile));
        return conf;
    }

    /**
     * What a driver needs besides the master to run on a cluster whose secret file is {@code secretFile}: the
     * secret, and a driver reachable on loopback only, without a web UI.
     */
    public static Map<String, String> driverConf(Path secretFile) {
        Map<String, String> conf = new LinkedHashMap<>(ClusterSecret.driverConf(secretFile));
        conf.putAll(loopbackDriver());
        return conf;
    }

    /** A driver of this machine reachable on loopback only, without a web UI: on a standalone cluster and on YARN. */
    static Map<String, String> loopbackDriver() {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.driver.host", DaemonCommands.LOOPBACK);
        conf.put("spark.driver.bindAddress", DaemonCommands.LOOPBACK);
        // the driver's UI would listen on every interface unless SPARK_LOCAL_IP is set in the driver's environment
        conf.put("spark.ui.enabled", "false");
        return conf;
    }

    @Override
    public Path secretFile() {
        return secretFile;
    }

    @Override
    public Optional<URI> hdfsUri() {
        return hdfsUri;
    }

    @Override
    public int workers() {
        return workers;
    }

    /** The process ids of the master, the workers and the HDFS process: the processes {@link #close} stops. */
    public List<Long> pids() {
        return processes.pids();
    }

    /** Where the cluster keeps its logs, the workers' directories and the secret file. */
    public Path workDirectory() {
        return workDirectory;
    }

    @Override
    public MasterStatus status() {
        return MasterStatus.query(masterUiPort)
                .orElseThrow(() -> new LocalClusterException("Cannot read the status"
                        + " of the master at " + masterUrl + ": its web UI on port " + masterUiPort
                        + " does not answer;"
                        + " its log is " + workDirectory.resolve("master.log")));
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // workers first: they stop their executors while the master still answers
        processes.stop();
        if (temporary) {
            WorkDirectories.delete(workDirectory);
        }
    }

    /** Why the cluster is broken when one of its processes exited, naming that process's log. */
    public Optional<String> exitedProcess() {
        return processes.exitedProcess();
    }

    /**
     * Waits until every process of the cluster runs, the master lists every worker and no application, and no
     * process runs under the cluster's (executors, which a worker stops only after their application ended): the state in which a
     * cluster is handed from one test class to the next.
     * Returns empty then, or what is still not so after {@code timeout}; at once if a process of the cluster exited.
     */
    public Optional<String> awaitIdle(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Optional<String> exited = exitedProcess();
            if (exited.isPresent()) {
                return exited;
            }
            Optional<MasterStatus> status = MasterStatus.query(masterUiPort);
            List<Long> children = pids().stream()
                    .flatMap(pid -> ProcessHandle.of(pid).stream())
                    .flatMap(ProcessHandle::descendants)
                    .filter(ProcessHandle::isAlive)
                    .map(ProcessHandle::pid)
                    .toList();
            boolean idle = status.isPresent()
                    && status.get().aliveWorkers() == workers
                    && status.get().activeApplications().isEmpty()
                    && children.isEmpty();
            if (idle) {
                return Optional.empty();
            }
            if (System.nanoTime() > deadline) {
                return Optional.of(status.map(s -> s.aliveWorkers() + " of " + workers + " workers alive, applications "
                                        + s.activeApplications())
                                .orElse("the master's web UI on" + " port " + masterUiPort + " does not answer")
                        + ", processes " + children
                        + " under the cluster's after " + timeout.toSeconds() + " s");
            }
            try {
                Thread.sleep(IDLE_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted while waiting for the cluster to be idle");
            }
        }
    }

    /** Starts a {@link ProcessCluster}; every setting has a default, good for a test on a small machine. */
    public static final class Builder {
        private final SparkHome home;
        private int workers = 2;
        private int workerCores = 1;
        private String workerMemory = "1g";
        private boolean hdfs;
        private int dataNodes = 1;
        private Path workDirectory;
        private Duration startTimeout = Duration.ofSeconds(90);
        private boolean distinctWorkerHosts;

        private Builder(SparkHome home) {
            this.home = requireNonNull(home, "home is null");
        }

        public Builder workers(int workers) {
            if (workers < 1) {
                throw new IllegalArgumentException("Cannot start " + workers + " workers: give at least 1");
            }
            this.workers = workers;
            return this;
        }

        public Builder workerCores(int cores) {
            if (cores < 1) {
                throw new IllegalArgumentException("Cannot give a worker " + cores + " cores: give at least 1");
            }
            this.workerCores = cores;
            return this;
        }

        /** The memory each worker offers its executors, in Spark's notation: {@code 512m}, {@code 2g}. */
        public Builder workerMemory(String memory) {
            requireNonNull(memory, "memory is null");
            if (!memory.matches("[1-9][0-9]*[mMgG]")) {
                throw new IllegalArgumentException(
                        "Cannot give a worker memory '" + memory + "': give a size such as 512m or 2g");
            }
            this.workerMemory = memory;
            return this;
        }

        /**
         * Whether each worker, and so its executors, has a loopback address of its own ({@code 127.0.0.2}, ...) and
         * so is a host of its own to Spark: speculative execution needs two hosts. Linux only.
         */
        public Builder distinctWorkerHosts(boolean distinct) {
            this.distinctWorkerHosts = distinct;
            return this;
        }

        /** Whether the cluster has an HDFS: a NameNode and one DataNode, in a JVM of their own. */
        public Builder hdfs(boolean hdfs) {
            this.hdfs = hdfs;
            return this;
        }

        /**
         * Where the logs, the workers' directories, the secret file and HDFS's storage go; a new directory, created
         * readable by its owner only, and left in place on close. Default: a new temporary directory, deleted on
         * close (and kept, with its logs, when the start fails).
         */
        public Builder workDirectory(Path directory) {
            this.workDirectory = requireNonNull(directory, "directory is null");
            return this;
        }

        /** How long the master, the workers' registration and HDFS may take to come up. */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = requireNonNull(timeout, "timeout is null");
            return this;
        }

        public ProcessCluster start() {
            Path directory = ProcessGroup.createWorkDirectory(workDirectory);
            Path secretFile = directory.resolve(SECRET_FILE);
            ClusterSecret.create(secretFile, DaemonCommands.settings());
            DaemonCommands commands = DaemonCommands.onHost(home, secretFile);
            ProcessGroup started = new ProcessGroup();
            try {
                int port = FreePorts.next();
                int uiPort = FreePorts.next();
                String masterUrl = "spark://" + DaemonCommands.LOOPBACK + ":" + port;
                Path hdfsDirectory = directory.resolve("hdfs");
                // HDFS comes up while Spark does
                ChildProcess hdfsProcess = hdfs ? started.add(HdfsProcess.start(home, hdfsDirectory, dataNodes)) : null;
                ChildProcess master = started.add(ChildProcess.start(
                        "master",
                        commands.master(DaemonCommands.LOOPBACK, port, uiPort),
                        commands.environment(DaemonCommands.LOOPBACK),
                        directory.resolve("master.log")));
                for (int i = 0; i < workers; i++) {
                    Path workerDirectory = Files.createDirectory(directory.resolve("worker-" + i));
                    String address = DaemonCommands.workerAddress(i, distinctWorkerHosts);
                    started.add(ChildProcess.start(
                            "worker " + i,
                            commands.worker(address, masterUrl, workerCores, workerMemory, workerDirectory.toString()),
                            commands.environment(address),
                            directory.resolve("worker-" + i + ".log")));
                }
                long deadline = System.nanoTime() + startTimeout.toNanos();
                awaitWorkers(master, uiPort, started, deadline);
                Optional<URI> hdfsUri = hdfs
                        ? Optional.of(HdfsProcess.await(hdfsProcess, hdfsDirectory, deadline, startTimeout))
                        : Optional.empty();
                return new ProcessCluster(
                        masterUrl, uiPort, directory, secretFile, hdfsUri, workers, started, workDirectory == null);
            } catch (IOException | RuntimeException e) {
                throw started.failedStart(directory, e);
            }
        }

        private void awaitWorkers(ChildProcess master, int uiPort, ProcessGroup started, long deadline) {
            int registered = 0;
            while (System.nanoTime() < deadline) {
                started.requireAlive();
                Optional<MasterStatus> status = MasterStatus.query(uiPort);
                if (status.isPresent()) {
                    registered = status.get().aliveWorkers();
                    if (registered >= workers) {
                        return;
                    }
                }
                ProcessGroup.pause();
            }
            throw new LocalClusterException("Cannot start the local cluster: " + registered + " of " + workers
                    + " workers registered with the master within " + startTimeout.toSeconds() + " s; the logs are "
                    + master.log() + " and " + master.log().resolveSibling("worker-<n>.log"));
        }
    }
}
