package dev.tensorbroadcast.localcluster.yarn;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;

/**
 * The YARN of a local cluster, in a JVM of its own: a ResourceManager and NodeManagers on this machine (Hadoop's
 * {@link MiniYARNCluster}), their state under the working directory. Once every NodeManager has registered, writes
 * the clients' {@code yarn-site.xml}; then takes commands on stdin, one a line, until stdin closes (the JVM that
 * started it ended):
 * <ul>
 *   <li>{@code stop-node-manager <host:port>}: stops that NodeManager, and with it the containers it runs, as a
 *       machine of a real cluster that goes away; answers {@code stopped <host:port>} on stdout.
 * </ul>
 *
 * <p>Arguments: the NodeManagers, the memory each offers in MiB, the cores each offers, the {@code yarn-site.xml} to
 * write. The containers
 * get this JVM's {@code JAVA_HOME} (a NodeManager passes it on).
 */
public final class YarnMain {
    /** What a client (spark-submit, an ApplicationMaster) needs of the cluster's settings. */
    static final List<String> CLIENT_KEYS = List.of(
            YarnConfiguration.RM_ADDRESS,
            YarnConfiguration.RM_SCHEDULER_ADDRESS,
            YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS,
            YarnConfiguration.RM_ADMIN_ADDRESS,
            YarnConfiguration.RM_WEBAPP_ADDRESS,
            YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB,
            YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB,
            YarnConfiguration.NM_PMEM_MB);

    private static final long REGISTRATION_MILLIS = 120_000;
    private static final long ADDRESS_MILLIS = 30_000;
    /** How long a signal's stop waits for the mini cluster's own stop; see {@link #stopWithin}. */
    private static final long STOP_MILLIS = 3_000;

    private YarnMain() {}

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable e) {
            // the daemons' threads would keep a JVM whose start failed alive: the starter sees it exit instead
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("Cannot start YARN: expected <node managers> <memory MiB each> <cores each>"
                    + " <yarn-site.xml>, got "
                    + args.length + " arguments");
            System.exit(2);
        }
        int nodeManagers = Integer.parseInt(args[0]);
        int memory = Integer.parseInt(args[1]);
        int cores = Integer.parseInt(args[2]);
        Path siteFile = Path.of(args[3]);

        // the mini cluster keeps its state under Hadoop's test directory: this JVM's working directory
        System.setProperty("test.build.data", Path.of("").toAbsolutePath().toString());
        MiniYARNCluster cluster = new MiniYARNCluster("yarn", nodeManagers, 1, 1);
        cluster.init(configuration(memory, cores));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopWithin(cluster, STOP_MILLIS), "yarn-shutdown"));
        cluster.start();
        awaitAddress(cluster.getConfig());
        if (!cluster.waitForNodeManagersToConnect(REGISTRATION_MILLIS)) {
            System.err.println("Cannot start YARN: not every one of " + nodeManagers + " NodeManagers registered"
                    + " with the ResourceManager within " + REGISTRATION_MILLIS / 1000 + " s");
            System.exit(1);
        }
        writeSite(cluster.getConfig(), siteFile);

        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = commands.readLine(); line != null; line = commands.readLine()) {
            @SuppressWarnings("StringSplitter") // a stripped line has no trailing empty word, and the count is checked
            String[] words = line.strip().split("\\s+");
            if (words.length == 2 && words[0].equals("stop-node-manager")) {
                System.out.println(stopNodeManager(cluster, nodeManagers, words[1]));
            } else {
                System.out.println("unknown command: " + line);
            }
            System.out.flush();
        }
        System.exit(0);
    }

    /**
     * The settings of a small cluster on one machine: containers as large as a NodeManager's memory and no larger
     * (a larger request is refused), no memory or disk checks that would kill containers or nodes of a busy test
     * machine, and a lost node noticed in seconds.
     */
    private static Configuration configuration(int memory, int cores) {
        YarnConfiguration conf = new YarnConfiguration();
        conf.setInt("yarn.minicluster.yarn.nodemanager.resource.memory-mb", memory);
        conf.setInt(YarnConfiguration.NM_PMEM_MB, memory);
        conf.setInt(YarnConfiguration.NM_VCORES, cores);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, memory);
        conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
        conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
        conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 100.0f);
        // the capacity scheduler's one queue (its capacity-scheduler.xml is not on this class path)
        conf.set("yarn.scheduler.capacity.root.queues", "default");
        conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
        // the capacity scheduler's default of 10% would leave room for one application master at most
        conf.setFloat("yarn.scheduler.capacity.maximum-am-resource-percent", 0.5f);
        // a stopped NodeManager (stop-node-manager) does not say goodbye: the ResourceManager counts it alive until
        // this expires, and may hand out its memory meanwhile. 10 s is still 40 missed heartbeats
        conf.setLong(YarnConfiguration.RM_NM_EXPIRY_INTERVAL_MS, 10_000);
        // the capacity scheduler hands out containers when a NodeManager heartbeats: every 1 s by default, so an
        // application master, then its executors, each waited up to a second for nothing on an idle cluster
        conf.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 250);
        conf.setBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED, false);
        return conf;
    }

    /**
     * Stops the cluster, waiting for it {@code millis} at most: a NodeManager that ran an application waits out its
     * log handler's pending deletions (up to 10 s, each in turn) before it stops, and the process that stops this JVM
     * (ProcessGroup) stops the containers itself and kills what is left after its own grace: waiting longer here
     * only made every stop after a job take that grace in full.
     */
    private static void stopWithin(MiniYARNCluster cluster, long millis) {
        Thread stop = new Thread(cluster::stop, "yarn-stop");
        stop.setDaemon(true);
        stop.start();
        try {
            stop.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The ResourceManager's port is in the configuration some time after {@code start} returns. */
    private static void awaitAddress(Configuration conf) throws InterruptedException {
        long deadline = System.currentTimeMillis() + ADDRESS_MILLIS;
        while (conf.get(YarnConfiguration.RM_ADDRESS, "").endsWith(":0")) {
            if (System.currentTimeMillis() > deadline) {
                System.err.println(
                        "Cannot start YARN: the ResourceManager has no port after " + ADDRESS_MILLIS / 1000 + " s");
                System.exit(1);
            }
            Thread.sleep(100);
        }
    }

    /** Written whole, then moved in place: the starter never reads half a file. */
    private static void writeSite(Configuration cluster, Path siteFile) throws IOException {
        Configuration site = new Configuration(false);
        for (String key : CLIENT_KEYS) {
            site.set(key, cluster.get(key));
        }
        Path partial = siteFile.resolveSibling(siteFile.getFileName() + ".partial");
        try (OutputStream out = Files.newOutputStream(partial)) {
            site.writeXml(out);
        }
        Files.move(partial, siteFile, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String stopNodeManager(MiniYARNCluster cluster, int nodeManagers, String nodeId) {
        for (int i = 0; i < nodeManagers; i++) {
            NodeManager nodeManager = cluster.getNodeManager(i);
            if (nodeManager.getNMContext().getNodeId().toString().equals(nodeId)) {
                nodeManager.stop();
                return "stopped " + nodeId;
            }
        }
        return "no node manager " + nodeId;
    }
}
