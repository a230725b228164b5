package dev.tensorbroadcast.localcluster.junit;

import dev.tensorbroadcast.localcluster.LocalClusterException;
import dev.tensorbroadcast.localcluster.SparkHome;
import dev.tensorbroadcast.localcluster.s3.S3Server;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Starts an {@link S3Server} once per test class annotated {@link WithS3Server}, in a temporary directory, and stops
 * it after the class; resolves parameters of type {@link S3Server}. A test may stop the server itself (a fault):
 * closing it twice is harmless.
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
            server.close();
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
