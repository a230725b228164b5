package dev.tensorbroadcast.localcluster.container;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.localcluster.ClusterSecret;
import dev.tensorbroadcast.localcluster.DaemonCommands;
import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.LocalClusterException;
import dev.tensorbroadcast.localcluster.MasterStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.Container.ExecResult;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * A Spark standalone cluster in containers: a master and workers, each its own host with its own address on an
 * internal Docker network the cluster creates (no route off the machine), authenticated with a fresh secret, the
 * master's REST submission server off. Drivers run in containers on the same network ({@link #submit}); a directory
 * of the host can be shared, at the same path, by every container, as storage all nodes see.
 *
 * <p>The daemons run the command lines of {@link DaemonCommands}, as the process backend's do, from the image's
 * {@code java} and jars. Closing stops and removes every container, the network and the secret; a shutdown hook does
 * the same when the JVM exits first.
 */
public final class ContainerCluster implements LocalCluster {
    public static final String MASTER_HOST = "master";
    private static final int MASTER_PORT = 7077;
    private static final int MASTER_UI_PORT = 8080;
    public static final String CLUSTER_LABEL = "dev.tensorbroadcast.cluster";
    private static final String SPARK_HOME = "/opt/spark";
    /** Where each container sees the cluster's properties file (with the secret), read-only. */
    /** How long a submitted driver waits for every worker's executor before it starts tasks anyway. */
    private static final Duration EXECUTORS_WAIT = Duration.ofSeconds(60);

    private static final String PROPERTIES_FILE = SPARK_HOME + "/conf/cluster.properties";
    private static final DaemonCommands COMMANDS = DaemonCommands.inImage(SPARK_HOME, PROPERTIES_FILE);

    private final Settings settings;
    private final String id = UUID.randomUUID().toString();
    private final Path propertiesFile;
    private final DockerImageName image;
    private final Network network;
    private final List<GenericContainer<?>> workers = new ArrayList<>();
    private final List<ContainerDriver> drivers = new ArrayList<>();
    private final AtomicInteger driverCount = new AtomicInteger();
    private final Thread shutdownHook = new Thread(this::stopEverything, "container-cluster-shutdown");
    private GenericContainer<?> master;
    private boolean closed;

    private ContainerCluster(Settings settings) {
        this.settings = settings;
        OfflineTestcontainers.require();
        this.image = SparkImage.requireLocal(settings.image);
        this.propertiesFile = writeSecretFile();
        // internal: containers reach each other and nothing else
        this.network = Network.builder()
                .createNetworkCmdModifier(cmd -> cmd.withInternal(true).withLabels(Map.of(CLUSTER_LABEL, id)))
                .build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Whether a Docker engine answers; tests that need one skip without it. Fails when Testcontainers is not set up to
     * stay offline (see {@link OfflineTestcontainers}).
     */
    public static boolean dockerAvailable() {
        OfflineTestcontainers.require();
        return DockerClientFactory.instance().isDockerAvailable();
    }

    /** Labels every container and the network ({@value #CLUSTER_LABEL}), to find what a dead JVM left behind. */
    public String id() {
        return id;
    }

    /** The master's URL as the cluster's own hosts (and {@link #submit drivers}) see it. */
    @Override
    public String masterUrl() {
        return "spark://" + MASTER_HOST + ":" + MASTER_PORT;
    }

    /**
     * What a driver on the cluster's network needs: the master and the secret. Such a driver runs in a container of
     * its own ({@link #submit}), which also names its host; a driver on this machine cannot reach the network.
     */
    @Override
    public Map<String, String> sparkConf() {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.master", masterUrl());
        conf.putAll(ClusterSecret.driverConf(propertiesFile));
        return conf;
    }

    /** The containers share no HDFS: a {@link Builder#sharedDirectory shared directory} is their common storage. */
    @Override
    public Optional<URI> hdfsUri() {
        return Optional.empty();
    }

    @Override
    public int workers() {
        return settings.workers;
    }

    /** The host name of worker {@code index} (from 0) on the cluster's network. */
    public String workerHost(int index) {
        return "worker-" + (index + 1);
    }

    /** The host file with the cluster's secret; every container sees it read-only. */
    @Override
    public Path secretFile() {
        return propertiesFile;
    }

    /** The master's own view, from its JSON status page, read inside the network. */
    @Override
    public MasterStatus status() {
        try {
            // the image has no HTTP client; bash's /dev/tcp is enough for one GET
            ExecResult result = master.execInContainer(
                    "timeout",
                    "10",
                    "bash",
                    "-c",
                    "exec 3<>/dev/tcp/" + MASTER_HOST + "/" + MASTER_UI_PORT
                            + " && printf 'GET /json/ HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3");
            if (result.getExitCode() != 0) {
                throw new LocalClusterException("Cannot read the Spark master's status: exit code "
                        + result.getExitCode() + ": " + result.getStderr().strip());
            }
            return MasterStatus.parse(result.getStdout());
        } catch (IOException e) {
            throw new LocalClusterException("Cannot read the Spark master's status: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalClusterException("Interrupted while reading the Spark master's status", e);
        }
    }

    /** Kills worker {@code index}'s container (SIGKILL to the Worker and its executors), as a machine would die. */
    public void killWorker(int index) {
        GenericContainer<?> worker = workers.get(index);
        worker.getDockerClient().killContainerCmd(worker.getContainerId()).exec();
    }

    /**
     * Starts {@code mainClass} of {@code applicationJar} with spark-submit in client mode, in a new container on the
     * cluster's network; the jar is mounted read-only, the shared directory read-write. The driver asks for every
     * worker's cores and waits up to a minute for their executors before it starts tasks.
     */
    public ContainerDriver submit(Path applicationJar, String mainClass, List<String> arguments) {
        requireNonNull(applicationJar, "applicationJar is null");
        requireNonNull(mainClass, "mainClass is null");
        requireNonNull(arguments, "arguments is null");
        if (!Files.isRegularFile(applicationJar)) {
            throw new IllegalArgumentException("Cannot submit " + applicationJar + ": not a file");
        }
        String host = "driver-" + driverCount.incrementAndGet();
        String jar = "/opt/app/" + applicationJar.getFileName();
        // Standalone mode starts tasks on the first executor that registers; a small job could then run on one
        // worker alone. Asking for every worker's cores and waiting for all of them makes a job use the whole
        // cluster, as it would on one whose executors are up.
        List<String> submit = new ArrayList<>(List.of(
                "--conf",
                "spark.driver.host=" + host,
                "--conf",
                "spark.ui.enabled=false",
                "--conf",
                "spark.executor.memory=" + settings.workerMemory,
                "--conf",
                "spark.cores.max=" + settings.workers * settings.workerCores,
                "--conf",
                "spark.scheduler.minRegisteredResourcesRatio=1.0",
                "--conf",
                "spark.scheduler.maxRegisteredResourcesWaitingTime=" + EXECUTORS_WAIT.toSeconds() + "s",
                "--class",
                mainClass,
                jar));
        submit.addAll(arguments);
        GenericContainer<?> container = node(host, COMMANDS.submit(masterUrl(), submit))
                .withFileSystemBind(applicationJar.toAbsolutePath().toString(), jar, BindMode.READ_ONLY)
                .withStartupCheckStrategy(new StartedIsEnough())
                .waitingFor(new NoWait());
        ContainerDriver driver = new ContainerDriver(container);
        synchronized (this) {
            requireOpen();
            drivers.add(driver);
        }
        container.start();
        return driver;
    }

    /** Every container's output so far, for a failing test's message. */
    public String logs() {
        StringBuilder logs = new StringBuilder();
        List<GenericContainer<?>> nodes = new ArrayList<>();
        nodes.add(master);
        nodes.addAll(workers);
        for (GenericContainer<?> node : nodes) {
            if (node != null && node.getContainerId() != null) {
                logs.append("==== ")
                        .append(node.getNetworkAliases())
                        .append('\n')
                        .append(node.getLogs());
            }
        }
        return logs.toString();
    }

    @Override
    public void close() {
        stopEverything();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already exiting: the hook runs (or ran) stopEverything itself
        }
    }

    private void start() {
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            master = node(MASTER_HOST, COMMANDS.master(MASTER_HOST, MASTER_PORT, MASTER_UI_PORT))
                    .waitingFor(Wait.forLogMessage(".*I have been elected leader.*", 1)
                            .withStartupTimeout(settings.startTimeout));
            master.start();
            for (int i = 0; i < settings.workers; i++) {
                String host = workerHost(i);
                workers.add(node(
                                host,
                                COMMANDS.worker(
                                        host,
                                        masterUrl(),
                                        settings.workerCores,
                                        settings.workerMemory,
                                        "/tmp/spark-work"))
                        .waitingFor(Wait.forLogMessage(".*Successfully registered with master.*", 1)
                                .withStartupTimeout(settings.startTimeout)));
            }
            Startables.deepStart(workers).get(settings.startTimeout.toMillis(), TimeUnit.MILLISECONDS);
            awaitWorkersRegistered();
        } catch (RuntimeException | ExecutionException | TimeoutException e) {
            String logs = logs();
            stopEverything();
            throw new IllegalStateException(
                    "Cannot start a container cluster of " + settings.workers + " workers: " + e.getMessage() + "\n"
                            + logs,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopEverything();
            throw new IllegalStateException("Interrupted while starting a container cluster", e);
        }
    }

    private void awaitWorkersRegistered() throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + settings.startTimeout.toNanos();
        MasterStatus status = status();
        while (status.aliveWorkers() < settings.workers) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException(
                        "the master has " + status.aliveWorkers() + " alive workers after " + settings.startTimeout);
            }
            Thread.sleep(200);
            status = status();
        }
    }

    /** A container of the cluster: its own host on the network, the secret and the shared directory mounted. */
    private GenericContainer<?> node(String host, List<String> command) {
        GenericContainer<?> container = new GenericContainer<>(image)
                .withImagePullPolicy(imageName -> false)
                .withNetwork(network)
                .withNetworkAliases(host)
                // root in the container reads the owner-only secret file whichever image runs (apache/spark's
                // default user could not)
                .withCreateContainerCmdModifier(cmd -> cmd.withHostName(host).withUser("0:0"))
                .withLabel(CLUSTER_LABEL, id)
                // what a Worker needs to launch executors, set here so that any image with the jars will do
                .withEnv(COMMANDS.environment())
                .withFileSystemBind(propertiesFile.toString(), PROPERTIES_FILE, BindMode.READ_ONLY)
                .withCommand(command.toArray(String[]::new));
        settings.sharedDirectory.ifPresent(directory ->
                container.withFileSystemBind(directory.toString(), directory.toString(), BindMode.READ_WRITE));
        return container;
    }

    private synchronized void requireOpen() {
        if (closed) {
            throw new IllegalStateException("Cannot use container cluster " + id + ": it is closed");
        }
    }

    private synchronized void stopEverything() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        List<AutoCloseable> all = new ArrayList<>(drivers);
        for (int i = workers.size() - 1; i >= 0; i--) {
            all.add(workers.get(i));
        }
        if (master != null) {
            all.add(master);
        }
        all.add(network);
        for (AutoCloseable closeable : all) {
            try {
                closeable.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure =
                            new IllegalStateException("Cannot stop container cluster " + id + ": " + e.getMessage(), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        deleteSecretFile(propertiesFile);
        if (failure != null) {
            throw failure;
        }
    }

    /** A driver container has started once it runs: it is meant to exit, and {@link ContainerDriver} waits. */
    private static final class StartedIsEnough extends StartupCheckStrategy {
        @Override
        public StartupStatus checkStartupState(com.github.dockerjava.api.DockerClient client, String containerId) {
            return StartupStatus.SUCCESSFUL;
        }
    }

    private static final class NoWait extends AbstractWaitStrategy {
        @Override
        protected void waitUntilReady() {}
    }

    private record Settings(
            String image,
            int workers,
            int workerCores,
            String workerMemory,
            Optional<Path> sharedDirectory,
            Duration startTimeout) {}

    /** Settings of a cluster; {@link #start()} starts it and waits until every worker is registered. */
    public static final class Builder {
        private String image = SparkImage.defaultImage();
        private int workers = 2;
        private int workerCores = 1;
        private String workerMemory = "1g";
        private Optional<Path> sharedDirectory = Optional.empty();
        private Duration startTimeout = Duration.ofMinutes(2);

        private Builder() {}

        /**
         * An image with {@code java} 17 or later on its path and Spark's jars in {@code /opt/spark/jars}, such as
         * {@code apache/spark}; it must already be in the engine, as clusters never pull.
         */
        public Builder image(String image) {
            this.image = requireNonNull(image, "image is null");
            return this;
        }

        public Builder workers(int workers) {
            if (workers < 1) {
                throw new IllegalArgumentException("Cannot start a cluster of " + workers + " workers: give 1 or more");
            }
            this.workers = workers;
            return this;
        }

        public Builder workerCores(int workerCores) {
            if (workerCores < 1) {
                throw new IllegalArgumentException("Cannot give workers " + workerCores + " cores: give 1 or more");
            }
            this.workerCores = workerCores;
            return this;
        }

        /** Memory each worker offers its executor, in Spark's notation ({@code 512m}, {@code 2g}). */
        public Builder workerMemory(String workerMemory) {
            requireNonNull(workerMemory, "workerMemory is null");
            if (!workerMemory.matches("[1-9][0-9]*[mg]")) {
                throw new IllegalArgumentException("Cannot give workers memory '" + workerMemory
                        + "': give a whole number of megabytes or gigabytes, like 512m or 2g");
            }
            this.workerMemory = workerMemory;
            return this;
        }

        /** A host directory every container sees at the same path, read-write: shared storage. */
        public Builder sharedDirectory(Path sharedDirectory) {
            requireNonNull(sharedDirectory, "sharedDirectory is null");
            if (!Files.isDirectory(sharedDirectory)) {
                throw new IllegalArgumentException("Cannot share " + sharedDirectory + ": not a directory");
            }
            this.sharedDirectory = Optional.of(sharedDirectory.toAbsolutePath());
            return this;
        }

        public Builder startTimeout(Duration startTimeout) {
            requireNonNull(startTimeout, "startTimeout is null");
            if (startTimeout.isNegative() || startTimeout.isZero()) {
                throw new IllegalArgumentException(
                        "Cannot wait " + startTimeout + " for a cluster: give a positive" + " duration");
            }
            this.startTimeout = startTimeout;
            return this;
        }

        public ContainerCluster start() {
            ContainerCluster cluster = new ContainerCluster(
                    new Settings(image, workers, workerCores, workerMemory, sharedDirectory, startTimeout));
            cluster.start();
            return cluster;
        }
    }

    /**
     * The cluster's properties file ({@link ClusterSecret}), in a directory only its owner can enter, which the
     * containers mount; submissions go through the authenticated RPC port only. The caller deletes both.
     */
    static Path writeSecretFile() {
        try {
            Path directory = Files.createTempDirectory(
                    "tensor-broadcast-cluster-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path file = directory.resolve("cluster.properties");
            ClusterSecret.create(file, DaemonCommands.settings());
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the cluster's secret file: " + e.getMessage(), e);
        }
    }

    static void deleteSecretFile(Path propertiesFile) {
        try {
            Files.deleteIfExists(propertiesFile);
            Files.deleteIfExists(propertiesFile.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot delete the cluster's secret file " + propertiesFile + ": " + e.getMessage(), e);
        }
    }
}
