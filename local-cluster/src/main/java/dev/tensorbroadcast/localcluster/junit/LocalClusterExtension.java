package dev.tensorbroadcast.localcluster.junit;

import dev.tensorbroadcast.localcluster.LocalCluster;
import dev.tensorbroadcast.localcluster.ProcessCluster;
import dev.tensorbroadcast.localcluster.SparkHome;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Starts the cluster {@link WithLocalCluster} describes once per test class, and stops it after the class; resolves
 * parameters of type {@link LocalCluster} and {@link ProcessCluster}. A {@link WithLocalCluster#shared shared} cluster
 * lives in the root context's store instead, one per settings, and is stopped when that store closes (the JVM's tests
 * end); a class hands it on idle, or it is stopped and the next class starts another.
 */
public final class LocalClusterExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(LocalClusterExtension.class);
    /** How long a class's applications may take to end, and their executors to exit, once the class is done. */
    private static final Duration IDLE_WAIT = Duration.ofSeconds(60);

    /** What makes two shared clusters the same one: the annotation's values. */
    private record Settings(
            int workers, int workerCores, String workerMemory, boolean hdfs, boolean distinctWorkerHosts) {
        static Settings of(WithLocalCluster annotation) {
            return new Settings(
                    annotation.workers(),
                    annotation.workerCores(),
                    annotation.workerMemory(),
                    annotation.hdfs(),
                    annotation.distinctWorkerHosts());
        }

        ProcessCluster start() {
            return ProcessCluster.builder(SparkHome.locate())
                    .workers(workers)
                    .workerCores(workerCores)
                    .workerMemory(workerMemory)
                    .hdfs(hdfs)
                    .distinctWorkerHosts(distinctWorkerHosts)
                    .start();
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        WithLocalCluster annotation = annotation(context);
        Settings settings = Settings.of(annotation);
        ProcessCluster cluster = annotation.shared() ? shared(context, settings) : settings.start();
        context.getStore(NAMESPACE).put(context.getRequiredTestClass(), cluster);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        LocalCluster cluster = context.getStore(NAMESPACE).remove(context.getRequiredTestClass(), LocalCluster.class);
        if (cluster == null) {
            return;
        }
        WithLocalCluster annotation = annotation(context);
        if (!annotation.shared()) {
            cluster.close();
            return;
        }
        // the class's applications end and their executors exit before the class's own store closes (its
        // directories, where an executor might still write, go with it) and before the next class gets the cluster
        Optional<String> busy = ((ProcessCluster) cluster).awaitIdle(IDLE_WAIT);
        if (busy.isPresent()) {
            System.out.println("[local cluster] not handed on after "
                    + context.getRequiredTestClass().getName() + ", stopped: " + busy.get());
            System.out.flush();
            context.getRoot().getStore(NAMESPACE).remove(Settings.of(annotation));
            cluster.close();
        }
    }

    /** The running shared cluster of these settings, idle; or a new one, kept for the classes after this one. */
    private static ProcessCluster shared(ExtensionContext context, Settings settings) {
        ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
        ProcessCluster running = root.get(settings, ProcessCluster.class);
        if (running != null) {
            Optional<String> busy = running.awaitIdle(IDLE_WAIT);
            if (busy.isEmpty()) {
                return running;
            }
            System.out.println("[local cluster] a new one for "
                    + context.getRequiredTestClass().getName() + ", the shared one stopped: " + busy.get());
            System.out.flush();
            root.remove(settings);
            running.close();
        }
        ProcessCluster started = settings.start();
        // an AutoCloseable in the root store is closed when the engine's execution ends
        root.put(settings, started);
        return started;
    }

    private static WithLocalCluster annotation(ExtensionContext context) {
        return AnnotationSupport.findAnnotation(context.getRequiredTestClass(), WithLocalCluster.class)
                .orElseThrow(() -> new IllegalStateException("Cannot start a local cluster for "
                        + context.getRequiredTestClass().getName() + ": it has no @WithLocalCluster"));
    }

    /** The cluster running for the test class of {@code context}: for the class's other extensions. */
    public static ProcessCluster cluster(ExtensionContext context) {
        ProcessCluster cluster = context.getStore(NAMESPACE).get(context.getRequiredTestClass(), ProcessCluster.class);
        if (cluster == null) {
            throw new IllegalStateException("Cannot find the local cluster of "
                    + context.getRequiredTestClass().getName()
                    + ": none is running; is the class annotated @WithLocalCluster?");
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
        ProcessCluster cluster = context.getStore(NAMESPACE).get(context.getRequiredTestClass(), ProcessCluster.class);
        if (cluster == null) {
            throw new ParameterResolutionException(
                    "Cannot give " + parameter.getDeclaringExecutable() + " a local cluster: none is running for "
                            + context.getRequiredTestClass().getName());
        }
        return cluster;
    }
}
