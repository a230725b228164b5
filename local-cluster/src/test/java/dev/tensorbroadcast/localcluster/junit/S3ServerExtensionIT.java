package dev.tensorbroadcast.localcluster.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;

/**
 * Two classes in one JVM, each with an S3 server of its own (the same bucket on another port), write through Hadoop's
 * cached S3A client as a suite's classes do: the second must reach its own server. Before the extension closed the
 * cached client of the first, the second was handed it and its writes were refused (connection refused, in CI).
 */
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
class S3ServerExtensionIT {
    private static URI firstEndpoint;

    private static void writeThroughTheCachedClient(S3Server server, String key) throws IOException {
        Configuration conf = new Configuration();
        server.hadoopSettings().forEach(conf::set);
        FileSystem fileSystem = FileSystem.get(URI.create(server.uri("")), conf);
        try (OutputStream out = fileSystem.create(new Path(server.uri(key)), false)) {
            out.write(key.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(Files.readString(server.bucketDirectory().resolve(key))).isEqualTo(key);
    }

    @Nested
    @Order(1)
    @WithS3Server
    class First {
        @Test
        void writesToItsServer(S3Server server) throws IOException {
            firstEndpoint = server.endpoint();
            writeThroughTheCachedClient(server, "first.txt");
        }
    }

    @Nested
    @Order(2)
    @WithS3Server
    class Second {
        @Test
        void writesToItsOwnServerNotTheFirstOnesThatIsGone(S3Server server) throws IOException {
            assertThat(server.endpoint()).isNotEqualTo(firstEndpoint);
            writeThroughTheCachedClient(server, "second.txt");
        }
    }
}
