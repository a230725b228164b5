package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Spark's YARN client's refusals of a container larger than YARN grants, in Spark 4.2.0's words, said naming the Spark
 * setting that asked for the memory; YarnSubmitIT meets the executor's on a real ResourceManager.
 */
class YarnContainerLimitsTest {
    @Test
    void anExecutorTooLargeNamesSparkExecutorMemory() {
        String spark = "Required executor memory (4096 MB), offHeap memory (0) MB, overhead (409 MB), and PySpark"
                + " memory (0 MB) is above the max threshold (2048 MB) of this cluster! Please check the values of"
                + " 'yarn.scheduler.maximum-allocation-mb' and/or 'yarn.nodemanager.resource.memory-mb'.";
        assertThat(YarnContainerLimits.explain(spark))
                .hasValue("an executor's container would need 4505 MB"
                        + " (spark.executor.memory 4096 MB, spark.executor.memoryOverhead 409 MB) and YARN grants at most"
                        + " 2048 MB (yarn.scheduler.maximum-allocation-mb, at most yarn.nodemanager.resource.memory-mb);"
                        + " lower spark.executor.memory");
    }

    @Test
    void offHeapAndPySparkMemoryAreNamedWhenTheyCount() {
        String spark = "java.lang.IllegalArgumentException: Required executor memory (1024 MB), offHeap memory (512)"
                + " MB, overhead (384 MB), and PySpark memory (256 MB) is above the max threshold (2048 MB) of this"
                + " cluster! Please check the values of 'yarn.scheduler.maximum-allocation-mb' and/or"
                + " 'yarn.nodemanager.resource.memory-mb'.";
        assertThat(YarnContainerLimits.explain(spark))
                .hasValueSatisfying(line -> assertThat(line)
                        .startsWith("an executor's container would need 2176 MB (spark.executor.memory 1024 MB,"
                                + " spark.executor.memoryOverhead 384 MB, spark.memory.offHeap.size 512 MB,"
                                + " spark.executor.pyspark.memory 256 MB) and YARN grants at most 2048 MB"));
    }

    @Test
    void anApplicationMasterTooLargeNamesBothOfItsSettings() {
        String spark = "Required AM memory (3072+384 MB) is above the max threshold (2048 MB) of this cluster! Please"
                + " check the values of 'yarn.scheduler.maximum-allocation-mb' and/or"
                + " 'yarn.nodemanager.resource.memory-mb'.";
        assertThat(YarnContainerLimits.explain(spark))
                .hasValue("the application master's container would need 3456"
                        + " MB (3072 MB of spark.yarn.am.memory in client mode, spark.driver.memory in cluster mode, and 384"
                        + " MB of overhead) and YARN grants at most 2048 MB (yarn.scheduler.maximum-allocation-mb, at most"
                        + " yarn.nodemanager.resource.memory-mb); lower that memory");
    }

    @Test
    void anyOtherReasonIsLeftAsItIs() {
        assertThat(YarnContainerLimits.explain("Could not parse Master URL: 'nowhere'"))
                .isEmpty();
    }
}
