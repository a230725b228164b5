package dev.tensorbroadcast.job.cli;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spark's YARN client refuses an application whose containers would be larger than YARN grants, in a sentence that
 * names YARN's settings but not Spark's; this says which Spark setting asked for the memory, with Spark's figures.
 */
final class YarnContainerLimits {
    private static final Pattern EXECUTOR = Pattern.compile("Required executor memory \\((\\d+) MB\\), offHeap memory"
            + " \\((\\d+)\\) MB, overhead \\((\\d+) MB\\), and PySpark memory \\((\\d+) MB\\) is above the max"
            + " threshold \\((\\d+) MB\\) of this cluster");
    private static final Pattern AM = Pattern.compile("Required AM memory \\((\\d+)\\+(\\d+) MB\\) is above the max"
            + " threshold \\((\\d+) MB\\) of this cluster");
    private static final String LIMIT =
            " MB (yarn.scheduler.maximum-allocation-mb, at most" + " yarn.nodemanager.resource.memory-mb)";

    private YarnContainerLimits() {}

    /** What to say instead of Spark's {@code reason} when it is a container-size refusal; empty when it is not. */
    static Optional<String> explain(String reason) {
        Matcher executor = EXECUTOR.matcher(reason);
        if (executor.find()) {
            long heap = Long.parseLong(executor.group(1));
            long offHeap = Long.parseLong(executor.group(2));
            long overhead = Long.parseLong(executor.group(3));
            long pySpark = Long.parseLong(executor.group(4));
            return Optional.of("an executor's container would need " + (heap + offHeap + overhead + pySpark)
                    + " MB (spark.executor.memory " + heap + " MB, spark.executor.memoryOverhead " + overhead + " MB"
                    + (offHeap > 0 ? ", spark.memory.offHeap.size " + offHeap + " MB" : "")
                    + (pySpark > 0 ? ", spark.executor.pyspark.memory " + pySpark + " MB" : "")
                    + ") and YARN grants at most " + executor.group(5) + LIMIT + "; lower spark.executor.memory");
        }
        Matcher am = AM.matcher(reason);
        if (am.find()) {
            long heap = Long.parseLong(am.group(1));
            long overhead = Long.parseLong(am.group(2));
            return Optional.of("the application master's container would need " + (heap + overhead) + " MB ("
                    + heap + " MB of spark.yarn.am.memory in client mode, spark.driver.memory in cluster mode, and "
                    + overhead + " MB of overhead) and YARN grants at most " + am.group(3) + LIMIT
                    + "; lower that memory");
        }
        return Optional.empty();
    }
}
