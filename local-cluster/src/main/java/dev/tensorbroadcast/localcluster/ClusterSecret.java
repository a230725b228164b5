package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The properties file the cluster's daemons start with ({@code --properties-file}): Spark's authentication with a
 * fresh random secret, and the other settings every daemon shares. Created readable and writable by its owner only,
 * so the secret never shows on a command line or in another user's reach.
 */
public final class ClusterSecret {
    static final String AUTHENTICATE = "spark.authenticate";
    static final String SECRET = "spark.authenticate.secret";
    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    private ClusterSecret() {}

    /**
     * Writes a new file at {@code file} with a fresh secret and {@code settings}; fails if the file exists. Both
     * backends use it: the process cluster's daemons and the containers' read the same file.
     */
    public static void create(Path file, Map<String, String> settings) {
        requireNonNull(file, "file is null");
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        Properties properties = new Properties();
        properties.putAll(new TreeMap<>(settings));
        properties.setProperty(AUTHENTICATE, "true");
        properties.setProperty(SECRET, HexFormat.of().formatHex(secret));
        writeOwnerOnly(file, properties, "a local Spark cluster's settings and secret: keep it private");
    }

    /** Writes {@code properties} to a new file readable and writable by its owner only; fails if the file exists. */
    static void writeOwnerOnly(Path file, Properties properties, String comment) {
        try (FileChannel channel = FileChannel.open(
                        file,
                        java.util.Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Writer writer = Channels.newWriter(channel, StandardCharsets.UTF_8)) {
            properties.store(writer, comment);
        } catch (IOException e) {
            throw new LocalClusterException("Cannot write the cluster's properties file '" + file + "': " + e, e);
        }
    }

    /** The secret in a file {@link #create} wrote. */
    public static String read(Path file) {
        requireNonNull(file, "file is null");
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new LocalClusterException("Cannot read the cluster's secret file '" + file + "': " + e, e);
        }
        String secret = properties.getProperty(SECRET);
        if (secret == null || secret.isBlank()) {
            throw new LocalClusterException(
                    "Cannot read the cluster's secret file '" + file + "': it has no " + SECRET);
        }
        return secret;
    }

    /** The settings a driver needs to authenticate with the cluster whose secret file is {@code file}. */
    public static Map<String, String> driverConf(Path file) {
        return Map.of(AUTHENTICATE, "true", SECRET, read(file));
    }
}
