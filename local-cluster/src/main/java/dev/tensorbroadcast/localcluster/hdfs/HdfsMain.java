package dev.tensorbroadcast.localcluster.hdfs;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * The HDFS of a local cluster, in a JVM of its own: a NameNode and DataNodes on 127.0.0.1 with their storage under a
 * directory. Once they are up, writes the NameNode's {@code hdfs://} URI to a file; runs until its stdin closes (the
 * JVM that started it ended) or it is told to stop, then shuts HDFS down.
 *
 * <p>Arguments: the storage directory, the number of DataNodes, the file to write the URI to.
 */
public final class HdfsMain {
    private HdfsMain() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("Cannot start HDFS: expected <storage directory> <data nodes> <uri file>, got "
                    + args.length + " arguments");
            System.exit(2);
        }
        Path storage = Path.of(args[0]);
        int dataNodes = Integer.parseInt(args[1]);
        Path uriFile = Path.of(args[2]);

        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, storage.toString());
        // one DataNode holds every block: a file is complete with one replica
        conf.setInt("dfs.replication", Math.min(3, dataNodes));
        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf, storage.toFile())
                .numDataNodes(dataNodes)
                .format(true)
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(cluster::shutdown, "hdfs-shutdown"));
        cluster.waitActive();

        // written whole, then moved in place: the starter never reads half a URI
        Path partial = uriFile.resolveSibling(uriFile.getFileName() + ".partial");
        // the NameNode binds 127.0.0.1; its own URI says localhost, which may resolve elsewhere
        URI uri = URI.create("hdfs://127.0.0.1:" + cluster.getNameNodePort());
        Files.writeString(partial, uri.toString(), StandardCharsets.UTF_8);
        Files.move(partial, uriFile, StandardCopyOption.ATOMIC_MOVE);

        InputStream parent = System.in;
        while (parent.read() != -1) {
            // nothing is ever sent: the read returns -1 when the starting JVM is gone
        }
        System.exit(0);
    }
}
