package dev.tensorbroadcast.localcluster.junit;

import dev.tensorbroadcast.localcluster.LocalClusterException;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts an {@link S3Server} once per test class annotated {@link WithS3Server}, in a temporary directory, and stops
 * it after the class; resolves parameters of type {@link S3Server}. A test may stop the server itself (a fault):
 * closing it twice is harmless. Before it stops the server, it closes this JVM's cached S3A client of the server's
 * bucket: Hadoop caches one per bucket and user, not per endpoint, and every class's server has the same bucket on
 * another port, so the next class (in a suite's JVM) would be handed a client of a server that is gone.
 */
public final class S3ServerExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(S3ServerExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        Path directory;
        try {
            directory = Files.createTempDirectory("s3-server-");
        } catch (IOException e) {
            throw new LocalClusterException("Cannot create a directory for the S3 server: " + e.getMessage(), e);
        }
        context.getStore(NAMESPACE).put(context.getRequiredTestClass(), S3Server.start(SparkHome.locate(), directory));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        S3Server server = context.getStore(NAMESPACE).remove(context.getRequiredTestClass(), S3Server.class);
        if (server != null) {
            try {
                closeCachedClient(server);
            } finally {
                server.close();
            }
        }
    }

    /**
     * Closes this JVM's cached S3A client of the server's bucket, and only that one: Hadoop caches a client per bucket
     * and user, not per endpoint, so the next server of the same bucket would be handed it, while other cached file
     * systems (an HDFS a test still uses) stay open, as {@code FileSystem.closeAll()} would not leave them.
     */
    public static void closeCachedClient(S3Server server) {
        Configuration conf = new Configuration();
        server.hadoopSettings().forEach(conf::set);
        try {
            // closing a cached file system takes it out of the cache; one made here is closed at once
            FileSystem.get(URI.create(server.uri("")), conf).close();
        } catch (IOException | RuntimeException | LinkageError e) {
            // no S3A on this class path, or a client that cannot close: nothing of ours is cached to be handed on
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == S3Server.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        S3Server server = context.getStore(NAMESPACE).get(context.getRequiredTestClass(), S3Server.class);
        if (server == null) {
            throw new ParameterResolutionException(
                    "Cannot give " + parameter.getDeclaringExecutable() + " an S3 server: none is running for "
                            + context.getRequiredTestClass().getName());
        }
        return server;
    }
}
