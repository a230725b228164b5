package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;

/**
 * A YARN cluster on this machine: a ResourceManager and NodeManagers (Hadoop's mini cluster) in a JVM of their own
 * on 127.0.0.1, and optionally an HDFS NameNode and DataNode in another, as {@link ProcessCluster} runs them. Spark
 * runs on it as on any YARN: {@code spark-submit --master yarn} with {@code HADOOP_CONF_DIR} set to
 * {@link #hadoopConfDir} and the properties file {@link #secretFile}, client or cluster mode; the ApplicationMaster
 * and the executors are containers the NodeManagers start, with Spark's jars from this Spark home
 * ({@code spark.yarn.jars=local:...}, nothing uploaded) and this JVM's {@code JAVA_HOME}.
 *
 * <pre>{@code
 * try (YarnCluster cluster = YarnCluster.builder(SparkHome.locate()).nodeManagers(2).hdfs(true).start()) {
 *     SparkSession spark = SparkSession.builder().config(cluster.sparkConf()).getOrCreate();
 * }
 * }</pre>
 */
public final class YarnCluster implements LocalCluster {
    /** The master of every YARN cluster: where it is comes from Hadoop's settings. */
    public static final String MASTER = "yarn";
    /** The properties file a driver starts with ({@code spark-submit --properties-file}), in the work directory. */
    public static final String PROPERTIES_FILE = "spark-yarn.properties";
    /** The directory of Hadoop's client settings, {@code HADOOP_CONF_DIR}, in the work directory. */
    public static final String CONF_DIRECTORY = "hadoop-conf";

    private static final List<String> SITE_FILES = List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml");

    private final Path workDirectory;
    private final Path propertiesFile;
    private final Path confDirectory;
    private final Optional<URI> hdfsUri;
    private final int nodeManagers;
    private final int webPort;
    private final ChildProcess yarn;
    private final ProcessGroup processes;
    private final SparkHome home;
    private final boolean temporary;
    private final AtomicBoolean closed = new AtomicBoolean();

    private YarnCluster(
            Path workDirectory,
            Optional<URI> hdfsUri,
            int nodeManagers,
            int webPort,
            ChildProcess yarn,
            ProcessGroup processes,
            SparkHome home,
            boolean temporary) {
        this.workDirectory = workDirectory;
        this.propertiesFile = workDirectory.resolve(PROPERTIES_FILE);
        this.confDirectory = workDirectory.resolve(CONF_DIRECTORY);
        this.hdfsUri = hdfsUri;
        this.nodeManagers = nodeManagers;
        this.webPort = webPort;
        this.yarn = yarn;
        this.processes = processes;
        this.home = home;
        this.temporary = temporary;
    }

    public static Builder builder(SparkHome home) {
        return new Builder(home);
    }

    /** {@value #MASTER}: YARN's ResourceManager is found through {@link #hadoopConfDir}. */
    @Override
    public String masterUrl() {
        return MASTER;
    }

    /**
     * The settings of a driver in this JVM (client mode): the master, the properties file's settings, Hadoop's
     * settings of {@link #hadoopConfDir} as {@code spark.hadoop.*}, and a driver on loopback without a web UI.
     */
    @Override
    public Map<String, String> sparkConf() {
        return driverConf(confDirectory, propertiesFile);
    }

    /**
     * What a driver of this machine needs to run on the YARN cluster whose settings are in {@code confDirectory} and
     * {@code propertiesFile}: for {@code --master yarn} on a cluster {@code cluster start} recorded.
     */
    public static Map<String, String> driverConf(Path confDirectory, Path propertiesFile) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.master", MASTER);
        conf.put("spark.submit.deployMode", "client");
        conf.putAll(properties(propertiesFile));
        hadoopSettings(confDirectory).forEach((key, value) -> conf.put("spark.hadoop." + key, value));
        conf.putAll(ProcessCluster.loopbackDriver());
        return conf;
    }

    /**
     * The properties file, readable by its owner only, that a driver starts with ({@code --properties-file}): Spark's
     * jars for the containers, authentication on (Spark on YARN makes a fresh secret for each application and hands
     * it to its containers itself: there is no cluster secret), the executors' memory.
     */
    @Override
    public Path secretFile() {
        return propertiesFile;
    }

    /** {@code HADOOP_CONF_DIR}: {@code core-site.xml}, {@code hdfs-site.xml} and {@code yarn-site.xml} for clients. */
    public Path hadoopConfDir() {
        return confDirectory;
    }

    @Override
    public Optional<URI> hdfsUri() {
        return hdfsUri;
    }

    /** The NodeManagers the cluster started; {@link #status} tells how many are alive. */
    @Override
    public int workers() {
        return nodeManagers;
    }

    /** The port of the ResourceManager's web UI and REST API on 127.0.0.1. */
    public int resourceManagerWebPort() {
        return webPort;
    }

    @Override
    public MasterStatus status() {
        return ResourceManagerStatus.query(webPort)
                .orElseThrow(() -> new LocalClusterException("Cannot read the"
                        + " status of the YARN ResourceManager: its web port " + webPort
                        + " on 127.0.0.1 does not answer;"
                        + " its log is " + yarn.log()));
    }

    /** The NodeManagers that run, by their YARN ids ({@code host:port}): what {@link #stopNodeManager} takes. */
    public List<String> runningNodeManagers() {
        return ResourceManagerStatus.runningNodes(webPort);
    }

    /** The process ids of the YARN and HDFS processes: the processes {@link #close} stops, with their containers. */
    public List<Long> pids() {
        return processes.pids();
    }

    /** Where the cluster keeps its logs (the containers' under {@code yarn/}), settings and state. */
    public Path workDirectory() {
        return workDirectory;
    }

    /** Why the cluster is broken when one of its processes exited, naming that process's log. */
    public Optional<String> exitedProcess() {
        return processes.exitedProcess();
    }

    /**
     * Stops the NodeManager {@code nodeId} ({@code host:port}, as YARN's node reports name it) and the containers it
     * runs, as when a machine of a cluster goes away; the ResourceManager hears of it from the NodeManager.
     */
    public void stopNodeManager(String nodeId) {
        requireNonNull(nodeId, "nodeId is null");
        yarn.tell("stop-node-manager " + nodeId);
    }

    /**
     * The command line of {@code spark-submit --master yarn --deploy-mode <deployMode> --properties-file <file>}
     * and then {@code arguments}, run from this Spark home with {@link #hadoopConfDir} on its class path; start it
     * with {@link #submitEnvironment}.
     */
    public List<String> sparkSubmit(String deployMode, List<String> arguments) {
        requireNonNull(deployMode, "deployMode is null");
        if (!deployMode.equals("client") && !deployMode.equals("cluster")) {
            throw new IllegalArgumentException(
                    "Cannot submit in deploy mode '" + deployMode + "': give client or cluster");
        }
        return DaemonCommands.onHost(home, propertiesFile, confDirectory).submit(MASTER, deployMode, arguments);
    }

    /** The environment spark-submit needs for YARN: {@code HADOOP_CONF_DIR}. */
    public Map<String, String> submitEnvironment() {
        return Map.of("HADOOP_CONF_DIR", confDirectory.toString());
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // YARN first: its containers may still be writing to HDFS
        processes.stop();
        if (temporary) {
            WorkDirectories.delete(workDirectory);
        }
    }

    private static Map<String, String> properties(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new LocalClusterException("Cannot read the YARN cluster's properties file '" + file + "': " + e, e);
        }
        Map<String, String> settings = new TreeMap<>();
        properties.stringPropertyNames().forEach(key -> settings.put(key, properties.getProperty(key)));
        return settings;
    }

    /** Every setting of the site files in {@code confDirectory}, by key. */
    private static Map<String, String> hadoopSettings(Path confDirectory) {
        Configuration conf = new Configuration(false);
        for (String name : SITE_FILES) {
            Path file = confDirectory.resolve(name);
            if (!Files.isRegularFile(file)) {
                throw new LocalClusterException(
                        "Cannot read the YARN cluster's Hadoop settings: " + file + " does not exist");
            }
            conf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
        }
        Map<String, String> settings = new TreeMap<>();
        conf.forEach(entry -> settings.put(entry.getKey(), entry.getValue()));
        return settings;
    }

    /** Starts a {@link YarnCluster}; every setting has a default, good for a test on a small machine. */
    public static final class Builder {
        private final SparkHome home;
        private int nodeManagers = 2;
        private int nodeManagerCores = 2;
        private int nodeManagerMemoryMib = 2048;
        private boolean hdfs;
        private Path workDirectory;
        private Duration startTimeout = Duration.ofMinutes(2);

        private Builder(SparkHome home) {
            this.home = requireNonNull(home, "home is null");
        }

        public Builder nodeManagers(int nodeManagers) {
            if (nodeManagers < 1) {
                throw new IllegalArgumentException("Cannot start " + nodeManagers + " NodeManagers: give at least 1");
            }
            this.nodeManagers = nodeManagers;
            return this;
        }

        /** The virtual cores each NodeManager offers its containers. */
        public Builder nodeManagerCores(int cores) {
            if (cores < 1) {
                throw new IllegalArgumentException("Cannot give a NodeManager " + cores + " cores: give at least 1");
            }
            this.nodeManagerCores = cores;
            return this;
        }

        /**
         * The memory each NodeManager offers its containers, in Spark's notation ({@code 1536m}, {@code 2g}); also
         * the largest container YARN grants ({@code yarn.scheduler.maximum-allocation-mb}).
         */
        public Builder nodeManagerMemory(String memory) {
            requireNonNull(memory, "memory is null");
            if (!memory.matches("[1-9][0-9]*[mMgG]")) {
                throw new IllegalArgumentException(
                        "Cannot give a NodeManager memory '" + memory + "': give a size such as 1536m or 2g");
            }
            long mib = Long.parseLong(memory.substring(0, memory.length() - 1))
                    * (Character.toLowerCase(memory.charAt(memory.length() - 1)) == 'g' ? 1024 : 1);
            if (mib < 1024 || mib > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("Cannot give a NodeManager memory '" + memory + "': an application"
                        + " master and an executor need at least 1g");
            }
            this.nodeManagerMemoryMib = (int) mib;
            return this;
        }

        /** Whether the cluster has an HDFS (a NameNode and one DataNode), which is then its default file system. */
        public Builder hdfs(boolean hdfs) {
            this.hdfs = hdfs;
            return this;
        }

        /**
         * Where the logs, the settings and the state go; a new directory, created readable by its owner only, and
         * left in place on close. Default: a new temporary directory, deleted on close (and kept, with its logs,
         * when the start fails).
         */
        public Builder workDirectory(Path directory) {
            this.workDirectory = requireNonNull(directory, "directory is null");
            return this;
        }

        /** How long YARN (its NodeManagers registered) and HDFS may take to come up. */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = requireNonNull(timeout, "timeout is null");
            return this;
        }

        public YarnCluster start() {
            Path directory = ProcessGroup.createWorkDirectory(workDirectory);
            ProcessGroup started = new ProcessGroup();
            try {
                Path confDirectory = Files.createDirectory(directory.resolve(CONF_DIRECTORY));
                Path hdfsDirectory = directory.resolve("hdfs");
                // HDFS and YARN come up side by side: only the clients' settings need both
                ChildProcess hdfsProcess = hdfs ? started.add(HdfsProcess.start(home, hdfsDirectory, 1)) : null;
                Path yarnSite = confDirectory.resolve("yarn-site.xml");
                ChildProcess yarn = started.add(YarnProcess.start(
                        home,
                        directory.resolve("yarn"),
                        nodeManagers,
                        nodeManagerMemoryMib,
                        nodeManagerCores,
                        yarnSite));
                long deadline = System.nanoTime() + startTimeout.toNanos();
                Optional<URI> hdfsUri = hdfs
                        ? Optional.of(HdfsProcess.await(hdfsProcess, hdfsDirectory, deadline, startTimeout))
                        : Optional.empty();
                YarnProcess.await(yarn, yarnSite, deadline, startTimeout);
                writeClientSites(confDirectory, hdfsUri);
                writeProperties(directory, hdfsUri);
                int webPort = webPort(yarnSite);
                return new YarnCluster(
                        directory, hdfsUri, nodeManagers, webPort, yarn, started, home, workDirectory == null);
            } catch (IOException | RuntimeException e) {
                throw started.failedStart(directory, e);
            }
        }

        /** core-site.xml: HDFS, when there is one, is the default file system, where Spark stages an application. */
        private static void writeClientSites(Path confDirectory, Optional<URI> hdfsUri) throws IOException {
            Configuration core = new Configuration(false);
            core.set("fs.defaultFS", hdfsUri.map(URI::toString).orElse("file:///"));
            write(core, confDirectory.resolve("core-site.xml"));
            Configuration hdfsSite = new Configuration(false);
            // one DataNode holds every block
            hdfsSite.set("dfs.replication", "1");
            write(hdfsSite, confDirectory.resolve("hdfs-site.xml"));
        }

        private static void write(Configuration conf, Path file) throws IOException {
            try (OutputStream out = Files.newOutputStream(file)) {
                conf.writeXml(out);
            }
        }

        private void writeProperties(Path directory, Optional<URI> hdfsUri) {
            Properties properties = new Properties();
            properties.setProperty("spark.master", MASTER);
            // every NodeManager is on this machine: the containers load Spark from this Spark home, nothing uploaded
            properties.setProperty("spark.yarn.jars", "local:" + home.jars() + "/*");
            properties.setProperty(ClusterSecret.AUTHENTICATE, "true");
            // an application master and two executors of 512m (and Spark's 384m overhead) fit on two 2g nodes
            properties.setProperty("spark.executor.memory", "512m");
            properties.setProperty("spark.yarn.am.memory", "512m");
            // one executor a NodeManager, the application master's beside one: Spark's default of two on a single
            // 2g NodeManager asked for a container that never came, and every job then waited 30 s
            // (spark.scheduler.maxRegisteredResourcesWaitingTime) for 80% of its executors before its first task
            properties.setProperty("spark.executor.instances", Integer.toString(nodeManagers));
            // everything is on loopback: ask and report at short intervals rather than Spark's 3 s and 1 s
            properties.setProperty("spark.yarn.scheduler.heartbeat.interval-ms", "1000");
            properties.setProperty("spark.yarn.report.interval", "250ms");
            properties.setProperty("spark.yarn.client.launchMonitorInterval", "250ms");
            // every JVM of an application on loopback, as every port of YARN and HDFS: the driver (here, or in
            // the application master's container in cluster mode) without its web UI, which would listen on every
            // interface; the application master's and the executors' own ports
            ProcessCluster.loopbackDriver().forEach(properties::setProperty);
            properties.setProperty("spark.yarn.appMasterEnv.SPARK_LOCAL_IP", DaemonCommands.LOOPBACK);
            properties.setProperty("spark.executorEnv.SPARK_LOCAL_IP", DaemonCommands.LOOPBACK);
            if (hdfsUri.isEmpty()) {
                // without HDFS an application is staged in the work directory, not under the user's home
                properties.setProperty(
                        "spark.yarn.stagingDir",
                        directory.resolve("staging").toUri().toString());
            }
            ClusterSecret.writeOwnerOnly(
                    directory.resolve(PROPERTIES_FILE),
                    properties,
                    "the Spark settings of a local YARN cluster's drivers");
        }

        private static int webPort(Path yarnSite) {
            Configuration site = new Configuration(false);
            site.addResource(new org.apache.hadoop.fs.Path(yarnSite.toUri()));
            String address = site.get("yarn.resourcemanager.webapp.address", "");
            try {
                return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            } catch (NumberFormatException e) {
                throw new LocalClusterException(
                        "Cannot read the YARN ResourceManager's web port from " + yarnSite
                                + ": yarn.resourcemanager.webapp.address is '" + address + "'",
                        e);
            }
        }
    }
}
