package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
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
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(200);

    private final String masterUrl;
    private final int masterUiPort;
    private final Path workDirectory;
    private final Path secretFile;
    private final Optional<URI> hdfsUri;
    private final int workers;
    private final List<ChildProcess> processes;
    private final boolean temporary;
    private final Thread shutdownHook;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ProcessCluster(String masterUrl, int masterUiPort, Path workDirectory, Path secretFile,
            Optional<URI> hdfsUri, int workers, List<ChildProcess> processes, boolean temporary,
            Thread shutdownHook) {
        this.masterUrl = masterUrl;
        this.masterUiPort = masterUiPort;
        this.workDirectory = workDirectory;
        this.secretFile = secretFile;
        this.hdfsUri = hdfsUri;
        this.workers = workers;
        this.processes = List.copyOf(processes);
        this.temporary = temporary;
        this.shutdownHook = shutdownHook;
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
        return processes.stream().map(ChildProcess::pid).toList();
    }

    /** Where the cluster keeps its logs, the workers' directories and the secret file. */
    public Path workDirectory() {
        return workDirectory;
    }

    @Override
    public MasterStatus status() {
        return MasterStatus.query(masterUiPort).orElseThrow(() -> new LocalClusterException("Cannot read the status"
                + " of the master at " + masterUrl + ": its web UI on port " + masterUiPort + " does not answer;"
                + " its log is " + workDirectory.resolve("master.log")));
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to: it stops the same processes
        }
        stopAll(processes);
        if (temporary) {
            WorkDirectories.delete(workDirectory);
        }
    }

    /** Why the cluster is broken when one of its processes exited, naming that process's log. */
    public Optional<String> exitedProcess() {
        return processes.stream().filter(process -> !process.alive()).findFirst().map(ChildProcess::exited);
    }

    private static void stopAll(List<ChildProcess> processes) {
        // workers first: they stop their executors while the master still answers
        List<ProcessHandle> roots = new ArrayList<>();
        for (int i = processes.size() - 1; i >= 0; i--) {
            roots.add(processes.get(i).handle());
        }
        List<ProcessHandle> alive = ProcessTrees.stop(roots, STOP_GRACE);
        if (!alive.isEmpty()) {
            throw new LocalClusterException("Cannot stop the local cluster: processes "
                    + alive.stream().map(ProcessHandle::pid).toList() + " are still alive after SIGKILL");
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
                throw new IllegalArgumentException("Cannot give a worker memory '" + memory
                        + "': give a size such as 512m or 2g");
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
            Path directory = createWorkDirectory();
            Path secretFile = directory.resolve(SECRET_FILE);
            ClusterSecret.create(secretFile, DaemonCommands.settings());
            DaemonCommands commands = DaemonCommands.onHost(home, secretFile);
            List<ChildProcess> started = new ArrayList<>();
            Thread hook = new Thread(() -> stopAll(List.copyOf(started)), "local-cluster-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            try {
                int port = FreePorts.next();
                int uiPort = FreePorts.next();
                String masterUrl = "spark://" + DaemonCommands.LOOPBACK + ":" + port;
                Path hdfsDirectory = directory.resolve("hdfs");
                if (hdfs) {
                    // HDFS comes up while Spark does
                    started.add(HdfsProcess.start(home, hdfsDirectory, dataNodes));
                }
                ChildProcess master = ChildProcess.start("master", commands.master(DaemonCommands.LOOPBACK, port,
                        uiPort), commands.environment(DaemonCommands.LOOPBACK), directory.resolve("master.log"));
                started.add(master);
                for (int i = 0; i < workers; i++) {
                    Path workerDirectory = Files.createDirectory(directory.resolve("worker-" + i));
                    String address = DaemonCommands.workerAddress(i, distinctWorkerHosts);
                    started.add(ChildProcess.start("worker " + i, commands.worker(address, masterUrl, workerCores,
                            workerMemory, workerDirectory.toString()), commands.environment(address),
                            directory.resolve("worker-" + i + ".log")));
                }
                long deadline = System.nanoTime() + startTimeout.toNanos();
                awaitWorkers(master, uiPort, started, deadline);
                Optional<URI> hdfsUri = hdfs ? Optional.of(awaitHdfs(started.get(0), hdfsDirectory, deadline))
                        : Optional.empty();
                return new ProcessCluster(masterUrl, uiPort, directory, secretFile, hdfsUri, workers, started,
                        workDirectory == null, hook);
            } catch (IOException | RuntimeException e) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook stops them
                }
                try {
                    stopAll(started);
                } catch (RuntimeException stopFailure) {
                    e.addSuppressed(stopFailure);
                }
                if (e instanceof LocalClusterException failure) {
                    throw failure;
                }
                throw new LocalClusterException("Cannot start the local cluster in " + directory + ": "
                        + e.getMessage(), e);
            }
        }

        private Path createWorkDirectory() {
            try {
                var ownerOnly = PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
                if (workDirectory == null) {
                    return Files.createTempDirectory("tensor-broadcast-cluster-", ownerOnly);
                }
                return Files.createDirectory(workDirectory, ownerOnly);
            } catch (IOException e) {
                throw new LocalClusterException("Cannot create the local cluster's work directory"
                        + (workDirectory == null ? "" : " '" + workDirectory + "'") + ": " + e.getMessage(), e);
            }
        }

        private void awaitWorkers(ChildProcess master, int uiPort, List<ChildProcess> started, long deadline) {
            int registered = 0;
            while (System.nanoTime() < deadline) {
                for (ChildProcess process : started) {
                    if (!process.alive()) {
                        throw new LocalClusterException("Cannot start the local cluster: " + process.exited());
                    }
                }
                Optional<MasterStatus> status = MasterStatus.query(uiPort);
                if (status.isPresent()) {
                    registered = status.get().aliveWorkers();
                    if (registered >= workers) {
                        return;
                    }
                }
                pause();
            }
            throw new LocalClusterException("Cannot start the local cluster: " + registered + " of " + workers
                    + " workers registered with the master within " + startTimeout.toSeconds() + " s; the logs are "
                    + master.log() + " and " + master.log().resolveSibling("worker-<n>.log"));
        }

        private URI awaitHdfs(ChildProcess process, Path hdfsDirectory, long deadline) {
            while (System.nanoTime() < deadline) {
                URI uri = HdfsProcess.reported(hdfsDirectory);
                if (uri != null) {
                    return uri;
                }
                if (!process.alive()) {
                    throw new LocalClusterException("Cannot start HDFS: " + process.exited());
                }
                pause();
            }
            throw new LocalClusterException("Cannot start HDFS: the NameNode was not up within "
                    + startTimeout.toSeconds() + " s; its log is " + process.log());
        }

        private static void pause() {
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LocalClusterException("Cannot start the local cluster: interrupted");
            }
        }
    }
}
