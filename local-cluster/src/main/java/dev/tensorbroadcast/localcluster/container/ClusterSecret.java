package dev.tensorbroadcast.localcluster.container;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A fresh random secret for one cluster, in a Spark properties file only its owner can read, inside a directory only
 * its owner can enter. Master, workers and drivers read it with {@code --properties-file}: the secret never appears on
 * a command line.
 */
final class ClusterSecret {
    private static final SecureRandom RANDOM = new SecureRandom();

    private ClusterSecret() {}

    /** Writes the properties file; the caller deletes it and its directory when the cluster stops. */
    static Path writePropertiesFile() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        try {
            Path directory = Files.createTempDirectory("tensor-broadcast-cluster-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path file = Files.createFile(directory.resolve("cluster.properties"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, properties(HexFormat.of().formatHex(secret)), UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the cluster's secret file: " + e.getMessage(), e);
        }
    }

    static String properties(String secret) {
        return "spark.authenticate=true\n"
                + "spark.authenticate.secret=" + secret + "\n"
                // submissions go through the authenticated RPC port only
                + "spark.master.rest.enabled=false\n";
    }

    static void delete(Path propertiesFile) {
        try {
            Files.deleteIfExists(propertiesFile);
            Files.deleteIfExists(propertiesFile.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the cluster's secret file " + propertiesFile + ": "
                    + e.getMessage(), e);
        }
    }
}
