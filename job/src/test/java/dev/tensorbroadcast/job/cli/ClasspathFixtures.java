package dev.tensorbroadcast.job.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Copies another module's committed fixture files out of the class path. Under {@code mvn verify} they come from
 * arrow-io's test jar, where a resource is a {@code jar:} URI that {@code Path.of} cannot open without its file
 * system; in an IDE or {@code -pl ... test} they are plain files.
 */
final class ClasspathFixtures {
    private ClasspathFixtures() {}

    /** The resource {@code name} (a file, or a directory and everything below it) copied to {@code target}. */
    static Path copy(String name, Path target) throws IOException {
        URL url = ClasspathFixtures.class.getResource(name);
        if (url == null) {
            throw new IOException("no fixture " + name + " on the class path");
        }
        URI uri;
        try {
            uri = url.toURI();
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        if (!uri.getScheme().equals("jar")) {
            return copyTree(Path.of(uri), target);
        }
        try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of())) {
            return copyTree(jar.provider().getPath(uri), target);
        }
    }

    private static Path copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : paths.toList()) {
                Path to = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(to);
                } else {
                    Files.createDirectories(to.getParent());
                    Files.copy(path, to);
                }
            }
        }
        return target;
    }
}
