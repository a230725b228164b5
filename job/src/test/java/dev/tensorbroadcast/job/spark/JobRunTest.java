package dev.tensorbroadcast.job.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.base.JobFailedException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a job holds is released when it ends, unless its context stopped under it and took it along. */
class JobRunTest {
    private SparkSession spark;

    @BeforeEach
    void start() {
        spark = LocalSpark.start();
    }

    @AfterEach
    void stop() {
        spark.stop();
    }

    @Test
    void whatAJobHeldIsReleasedWhenItEnds() {
        List<String> released = new ArrayList<>();
        String result = JobRun.untracked(JobEngine.spark(spark), "holds").run("Cannot write 'x'", run -> {
            run.ship(new Configuration(false));
            run.hold("the source", released::add);
            return "done";
        });
        assertThat(result).isEqualTo("done");
        assertThat(released).containsExactly("the source");
    }

    /** As when YARN kills the application under a client-mode driver: Spark stops the context from its monitor. */
    @Test
    void aContextStoppedUnderTheJobFailsItWithoutReleasingWhatWentWithTheContext() {
        List<String> released = new ArrayList<>();
        assertThatThrownBy(() -> JobRun.untracked(JobEngine.spark(spark), "stopped under").run("Cannot write 'x'", run -> {
            run.ship(new Configuration(false));
            run.hold("the source", released::add);
            spark.stop();
            throw new IllegalStateException("Job 0 cancelled because SparkContext was shut down");
        })).isInstanceOf(JobFailedException.class)
                .hasMessageStartingWith("Cannot write 'x': the Spark job failed: ")
                .hasMessageContaining("Job 0 cancelled because SparkContext was shut down");
        assertThat(released).isEmpty();
    }
}
