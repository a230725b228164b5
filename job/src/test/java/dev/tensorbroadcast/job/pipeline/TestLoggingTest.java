package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tests log warnings and errors only (log4j2-test.properties), Spark running or not, unless -Dtb.test.log asks for
 * more: a build's output is the tests', not thousands of lines of Spark's INFO.
 */
class TestLoggingTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @Test
    void sparkAndHadoopLogWarningsOnlyUnlessAsked() {
        // Spark has started: without a test configuration it would have set its own defaults, INFO
        assertThat(SPARK.session().sparkContext().isStopped()).isFalse();
        boolean asked = System.getProperty("tb.test.log") != null;
        for (String name : new String[] {
            "org.apache.spark.scheduler.DAGScheduler",
            "org.apache.spark.SparkContext",
            "org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter"
        }) {
            Logger logger = LogManager.getLogger(name);
            assertThat(logger.isInfoEnabled()).as(name).isEqualTo(asked);
            assertThat(logger.isWarnEnabled()).as(name).isTrue();
        }
    }
}
