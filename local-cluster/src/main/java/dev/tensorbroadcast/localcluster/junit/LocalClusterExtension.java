package dev.tensorbroadcast.localcluster.junit;

import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.SparkHome;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Starts the cluster {@link WithLocalCluster} describes once per test class, and stops it after the class; resolves
 * parameters of type {@link LocalCluster} and {@link ProcessCluster}.
 */
public final class LocalClusterExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(LocalClusterExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        WithLocalCluster settings = AnnotationSupport.findAnnotation(context.getRequiredTestClass(),
                WithLocalCluster.class).orElseThrow(() -> new IllegalStateException("Cannot start a local cluster"
                        + " for " + context.getRequiredTestClass().getName() + ": it has no @WithLocalCluster"));
        ProcessCluster cluster = ProcessCluster.builder(SparkHome.locate()).workers(settings.workers())
                .workerCores(settings.workerCores()).workerMemory(settings.workerMemory()).hdfs(settings.hdfs())
                .distinctWorkerHosts(settings.distinctWorkerHosts()).start();
        context.getStore(NAMESPACE).put(context.getRequiredTestClass(), cluster);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        LocalCluster cluster = context.getStore(NAMESPACE).remove(context.getRequiredTestClass(), LocalCluster.class);
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The cluster running for the test class of {@code context}: for the class's other extensions. */
    public static ProcessCluster cluster(ExtensionContext context) {
        ProcessCluster cluster = context.getStore(NAMESPACE).get(context.getRequiredTestClass(), ProcessCluster.class);
        if (cluster == null) {
            throw new IllegalStateException("Cannot find the local cluster of " + context.getRequiredTestClass()
                    .getName() + ": none is running; is the class annotated @WithLocalCluster?");
        }
        return cluster;
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == LocalCluster.class || type == ProcessCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ProcessCluster cluster = context.getStore(NAMESPACE).get(context.getRequiredTestClass(),
                ProcessCluster.class);
        if (cluster == null) {
            throw new ParameterResolutionException("Cannot give " + parameter.getDeclaringExecutable()
                    + " a local cluster: none is running for " + context.getRequiredTestClass().getName());
        }
        return cluster;
    }
}
