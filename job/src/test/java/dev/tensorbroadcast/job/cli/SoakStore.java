package dev.tensorbroadcast.job.cli;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.junit.S3ServerExtension;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;

/** A store the soak writes to: where the output is, the settings a command needs for it, and how to list it. */
abstract class SoakStore implements AutoCloseable {
    /** The file that fills a disk, beside the output. */
    static final String FILLER = "filler";

    enum Kind {
        LOCAL,
        S3,
        HDFS
    }

    abstract Kind kind();

    /** The output every run of the soak writes, as the command line is given it. */
    abstract String output();

    /** The {@code --conf} settings a command needs to reach the store. */
    Map<String, String> settings() {
        return Map.of();
    }

    /** Every file under the output (with checksums when asked: a watcher needs names only) and directory. */
    abstract SoakListing list(boolean checksums);

    /** Deletes the output and everything under it. */
    abstract void clear();

    /** The bytes of the file at {@code path} under the output, for a report; empty when it cannot be read. */
    abstract byte[] read(String path);

    /** Writes {@code bytes} to the file at {@code path} under the output, replacing what is there. */
    abstract void write(String path, byte[] bytes);

    /** Writes a file through a Hadoop file system, for the stores that are reached through one. */
    static void write(FileSystem fileSystem, String file, byte[] bytes) {
        try (FSDataOutputStream out = fileSystem.create(new org.apache.hadoop.fs.Path(file), true)) {
            out.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The store's server process, for a fault that kills it; empty for a local disk. */
    Optional<Long> serverPid() {
        return Optional.empty();
    }

    /** Starts the server again after a fault killed it, with the objects it kept. */
    void restart() {}

    /** Why the store cannot be filled up by {@link #fill()}: empty when it can (a small disk of its own). */
    Optional<String> unfillable() {
        return Optional.of("only the local disk can be filled");
    }

    /** Fills the store's disk until a write fails with no space left: a full disk from now on. */
    void fill() {
        throw new UnsupportedOperationException(
                "Cannot fill " + kind() + ": " + unfillable().orElseThrow());
    }

    /** Frees what {@link #fill()} took; nothing when it was not filled. */
    void unfill() {}

    /** What the store's server keeps beyond the output that a run may have left: pending uploads, for one. */
    List<String> strays() {
        return List.of();
    }

    @Override
    public void close() {}

    /** {@code --conf} arguments for {@link #settings()}. */
    List<String> confArguments() {
        List<String> args = new ArrayList<>();
        settings().forEach((key, value) -> args.addAll(List.of("--conf", key + "=" + value)));
        return args;
    }

    /** Lists a directory of the local file system: a store whose objects are files (a local disk, S3Proxy's). */
    static SoakListing listFiles(Path root, boolean checksums) {
        for (int attempt = 0; ; attempt++) {
            TreeMap<String, Long> files = new TreeMap<>();
            Set<String> directories = new HashSet<>();
            if (!Files.isDirectory(root)) {
                return SoakListing.empty();
            }
            try (Stream<Path> walk = Files.walk(root)) {
                for (Path path : (Iterable<Path>) walk::iterator) {
                    if (path.equals(root)) {
                        continue;
                    }
                    String name = root.relativize(path).toString();
                    if (Files.isDirectory(path)) {
                        directories.add(name);
                    } else {
                        files.put(name, checksums ? SoakListing.checksum(name, Files.readAllBytes(path)) : 0L);
                    }
                }
                return new SoakListing(files, directories);
            } catch (NoSuchFileException | UncheckedIOException e) {
                // a writer renamed or deleted an entry under the walk: look again
                if (attempt > 50) {
                    throw new IllegalStateException("Cannot list " + root + ": it keeps changing", e);
                }
            } catch (IOException e) {
                if (attempt > 50) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    static byte[] readFile(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            return new byte[0];
        }
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A local disk: a small tmpfs mounted for the soak when it can be (root is needed), which {@link #fill()} fills
     * with one file, as DiskFullTest's disk fills; a directory of the test's otherwise, and no full-disk fault.
     */
    static final class Local extends SoakStore {
        /** Room for a few datasets of the soak (1 MiB each) and the free-space guard's margin. */
        private static final String SIZE = "64m";

        private final Path directory;
        private final Path output;
        private final Optional<String> unmounted;

        Local(Path directory) {
            this.directory = requireNonNull(directory, "directory is null");
            this.output = directory.resolve("out");
            this.unmounted = mount(directory);
        }

        /** Mounts a tmpfs of {@link #SIZE} at {@code directory}; empty when done, else why not. */
        private static Optional<String> mount(Path directory) {
            try {
                Files.createDirectories(directory);
                Process mount = new ProcessBuilder(
                                "mount", "-t", "tmpfs", "-o", "size=" + SIZE, "tmpfs", directory.toString())
                        .redirectErrorStream(true)
                        .start();
                String printed = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!mount.waitFor(30, TimeUnit.SECONDS) || mount.exitValue() != 0) {
                    return Optional.of("no tmpfs could be mounted (root is needed): " + printed.strip());
                }
                return Optional.empty();
            } catch (IOException e) {
                return Optional.of("no tmpfs could be mounted: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted while mounting a tmpfs");
            }
        }

        @Override
        Optional<String> unfillable() {
            return unmounted;
        }

        /** Writes one file until the tmpfs has no room left, in smaller and smaller blocks. */
        @Override
        void fill() {
            try (FileChannel channel =
                    FileChannel.open(directory.resolve(FILLER), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                channel.position(channel.size());
                int block = 1 << 20;
                while (block >= 512) {
                    ByteBuffer bytes = ByteBuffer.allocate(block);
                    try {
                        while (bytes.hasRemaining()) {
                            channel.write(bytes);
                        }
                    } catch (IOException e) {
                        // no space for this block: try a smaller one, down to the last few bytes
                        block /= 2;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        void unfill() {
            try {
                Files.deleteIfExists(directory.resolve(FILLER));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            if (unmounted.isEmpty()) {
                try {
                    new ProcessBuilder("umount", "-l", directory.toString())
                            .start()
                            .waitFor(30, TimeUnit.SECONDS);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        Kind kind() {
            return Kind.LOCAL;
        }

        @Override
        String output() {
            return output.toString();
        }

        @Override
        SoakListing list(boolean checksums) {
            return listFiles(output, checksums);
        }

        @Override
        void clear() {
            deleteTree(output);
        }

        @Override
        byte[] read(String path) {
            return readFile(output.resolve(path));
        }

        @Override
        void write(String path, byte[] bytes) {
            try {
                Path file = output.resolve(path);
                Files.createDirectories(file.getParent());
                Files.write(file, bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * An S3Proxy server (filesystem backend: one file per visible object, which the listing reads directly). A killed
     * server is started again on its directory, on another port and with new keys, which the next command is given.
     */
    static final class S3 extends SoakStore {
        /** What S3Proxy's filesystem backend names an object while it writes it: its key, a dash, a random UUID. */
        private static final Pattern HALF_PUT =
                Pattern.compile(".+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

        private static final String KEY = "soak/out";
        private final Path directory;
        private S3Server server;
        /** The soak's own client of the server, opened at its first use and closed with the server. */
        private FileSystem fileSystem;

        S3(Path directory) {
            this.directory = requireNonNull(directory, "directory is null");
            this.server = S3Server.start(SparkHome.locate(), directory);
        }

        @Override
        Kind kind() {
            return Kind.S3;
        }

        @Override
        String output() {
            return server.uri(KEY);
        }

        @Override
        Map<String, String> settings() {
            // Hadoop's cache of file systems stays on (a command without it makes an S3 client for each use of
            // the store: several CPU-seconds a run); restart() empties it in this JVM
            Map<String, String> settings = new LinkedHashMap<>(server.sparkSettings());
            // a dead server fails a command in seconds, not after S3A's minutes of retries
            settings.put("spark.hadoop.fs.s3a.retry.limit", "1");
            settings.put("spark.hadoop.fs.s3a.attempts.maximum", "1");
            settings.put("spark.hadoop.fs.s3a.connection.establish.timeout", "2s");
            return settings;
        }

        @Override
        SoakListing list(boolean checksums) {
            return listFiles(server.bucketDirectory().resolve(KEY), checksums);
        }

        @Override
        void clear() {
            deleteTree(server.bucketDirectory().resolve(KEY));
        }

        @Override
        byte[] read(String path) {
            return readFile(server.bucketDirectory().resolve(KEY).resolve(path));
        }

        @Override
        void write(String path, byte[] bytes) {
            if (fileSystem == null) {
                Configuration conf = new Configuration();
                server.hadoopSettings().forEach(conf::set);
                try {
                    fileSystem = FileSystem.newInstance(URI.create(output()), conf);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            write(fileSystem, output() + "/" + path, bytes);
        }

        private void closeFileSystem() {
            if (fileSystem != null) {
                try {
                    fileSystem.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                fileSystem = null;
            }
        }

        @Override
        Optional<Long> serverPid() {
            return Optional.of(server.pid());
        }

        @Override
        void restart() {
            closeFileSystem();
            // a restarted server has a new endpoint and new keys: the cached client of its bucket may not keep the
            // old. Only that one: FileSystem.closeAll() also closed the HDFS store's file system (newInstance puts it
            // in the cache too), and the next HDFS run failed with "Filesystem closed" (soak seed 20261129, run 35)
            S3ServerExtension.closeCachedClient(server);
            server.close();
            removeHalfPutObjects();
            server = S3Server.start(SparkHome.locate(), directory);
        }

        /**
         * S3Proxy's filesystem backend writes an object to {@code <key>-<random UUID>} and renames it into place, and
         * lists that file as an object: a server killed between the two leaves it, where S3 itself makes a PUT
         * visible whole or not at all. The oracle checks what our runs leave, not the test server's own crash
         * consistency, so these go before it looks (soak seed 5446649454520735693: the rerun refused an output
         * holding one as "not ours"); each removal is logged.
         */
        private void removeHalfPutObjects() {
            Path output = server.bucketDirectory().resolve(KEY);
            if (!Files.isDirectory(output)) {
                return;
            }
            try (Stream<Path> files = Files.walk(output)) {
                for (Path file : files.filter(Files::isRegularFile)
                        .filter(file ->
                                HALF_PUT.matcher(file.getFileName().toString()).matches())
                        .toList()) {
                    Files.delete(file);
                    System.out.println(
                            "soak: removed the killed S3 server's half-put object " + output.relativize(file));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Entries of the bucket's directory outside {@code soak/}: S3Proxy keeps pending uploads' parts there. */
        @Override
        List<String> strays() {
            try (Stream<Path> entries = Files.list(server.bucketDirectory())) {
                return entries.map(path -> path.getFileName().toString())
                        .filter(name -> !name.equals("soak"))
                        .sorted()
                        .toList();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            closeFileSystem();
            server.close();
        }
    }

    /** The standalone cluster's HDFS; its server is not killed (the cluster's other runs need it). */
    static final class Hdfs extends SoakStore {
        private final URI uri;
        private final FileSystem fileSystem;

        Hdfs(URI uri) {
            this.uri = requireNonNull(uri, "uri is null");
            try {
                this.fileSystem = FileSystem.newInstance(uri, new Configuration());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        Kind kind() {
            return Kind.HDFS;
        }

        @Override
        String output() {
            return uri + "/soak/out";
        }

        @Override
        SoakListing list(boolean checksums) {
            for (int attempt = 0; ; attempt++) {
                TreeMap<String, Long> files = new TreeMap<>();
                Set<String> directories = new HashSet<>();
                try {
                    walk(new org.apache.hadoop.fs.Path(output()), "", checksums, files, directories);
                    return new SoakListing(files, directories);
                } catch (FileNotFoundException e) {
                    if (attempt > 50) {
                        throw new UncheckedIOException(e);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }

        private void walk(
                org.apache.hadoop.fs.Path path,
                String prefix,
                boolean checksums,
                Map<String, Long> files,
                Set<String> directories)
                throws IOException {
            if (prefix.isEmpty() && !fileSystem.exists(path)) {
                return;
            }
            for (FileStatus status : fileSystem.listStatus(path)) {
                String name = prefix + status.getPath().getName();
                if (status.isDirectory()) {
                    directories.add(name);
                    walk(status.getPath(), name + "/", checksums, files, directories);
                } else if (checksums) {
                    try (InputStream in = fileSystem.open(status.getPath())) {
                        files.put(name, SoakListing.checksum(name, in.readAllBytes()));
                    }
                } else {
                    files.put(name, 0L);
                }
            }
        }

        @Override
        void clear() {
            try {
                fileSystem.delete(new org.apache.hadoop.fs.Path(output()), true);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        byte[] read(String path) {
            try (InputStream in = fileSystem.open(new org.apache.hadoop.fs.Path(output() + "/" + path))) {
                return in.readAllBytes();
            } catch (IOException e) {
                return new byte[0];
            }
        }

        @Override
        void write(String path, byte[] bytes) {
            write(fileSystem, output() + "/" + path, bytes);
        }

        @Override
        public void close() {
            try {
                fileSystem.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
