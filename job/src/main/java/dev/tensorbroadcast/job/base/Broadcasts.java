package dev.tensorbroadcast.job.base;

import org.apache.spark.broadcast.Broadcast;

/** Freeing the Spark broadcast variables a job shipped. */
public final class Broadcasts {
    private Broadcasts() {}

    /**
     * A value that never left this JVM (the driver's tasks read the driver's own object): released by dropping it.
     * Spark's {@code destroy} would also work, but its first call in a JVM initialises Spark's {@code Utils} and
     * logging to record where it was called from, about 0.1 s at the end of every job run without Spark
     * (docs/benchmarks.md, issue 28: the reduce job's time).
     */
    public interface Local {
        /** Drops the value; reading it afterwards fails. */
        void release();
    }

    /**
     * Removes {@code broadcast} from the driver and every executor and waits for their answers. Spark's own
     * {@code destroy()} does not wait: a command that stops its session right after it left the removal's requests
     * to the executors outstanding; as the executors exited with the session (on a cluster, where they are other
     * JVMs), those requests failed, and their failure handlers, due on the block manager's thread pool that the
     * stop had shut down, were refused: a {@code RejectedExecutionException} stack trace on stderr at the end of
     * about one run in four, after the result. The wait costs one round trip to the executors; a lost executor
     * answers with its failure at once, a hung one within {@code spark.rpc.askTimeout}.
     */
    public static void destroy(Broadcast<?> broadcast) {
        if (broadcast instanceof Local local) {
            local.release();
            return;
        }
        if (shuttingDown()) {
            // a signal stopped the JVM: Spark's hook is stopping the session, and an answer from the executors may
            // never come; the interruption's one line must still be printed within its hook's wait
            return;
        }
        broadcast.destroy(true);
    }

    /** Whether the JVM runs its shutdown hooks: it then refuses new ones. */
    private static boolean shuttingDown() {
        Thread probe = new Thread(() -> {});
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }
}
