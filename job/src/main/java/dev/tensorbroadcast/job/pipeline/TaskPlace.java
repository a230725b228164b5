package dev.tensorbroadcast.job.pipeline;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;

/**
 * Where a task runs, as the manifest records it: a Spark task's executor and its block manager's host, or, for a task
 * the driver calls itself ({@link ThreadsEngine}), what an embedded local Spark would say there: the driver's
 * executor id and its host name (Spark's choice of the local address).
 */
final class TaskPlace {
    private TaskPlace() {}

    /** Whether the calling thread runs a Spark task. */
    static boolean inSparkTask() {
        return SparkEngine.task().isPresent();
    }

    /** The attempt of the running task: a task the driver calls is the only attempt, 0. */
    static int attempt() {
        return SparkEngine.task().map(TaskContext::attemptNumber).orElse(0);
    }

    /** The id of a local Spark's only executor, the driver (Spark's {@code SparkContext.DRIVER_IDENTIFIER}). */
    static final String DRIVER = "driver";

    static String executorId() {
        return inSparkTask() ? SparkEnv.get().executorId() : DRIVER;
    }

    static String host() {
        return inSparkTask() ? SparkEnv.get().blockManager().blockManagerId().host() : DriverHost.NAME;
    }

    /**
     * {@code shared} for a Spark task, which received its own deserialized copy; a copy of it for a task the driver
     * calls, so that it keeps per-task state apart from the driver's (a commit protocol's committer) as a Spark task
     * does.
     */
    @SuppressWarnings("unchecked")
    static <T> T own(T shared) {
        if (inSparkTask()) {
            return shared;
        }
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                out.writeObject(shared);
            }
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                return (T) in.readObject();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Looked up once, on first use: Spark's choice of this machine's address (SPARK_LOCAL_IP, SPARK_LOCAL_HOSTNAME). */
    private static final class DriverHost {
        static final String NAME = org.apache.spark.util.Utils.localHostName();
    }
}
