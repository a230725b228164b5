package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Only arguments that rule out Spark ({@link EngineChoice#whySpark}'s reasons) log without log4j. */
class LoggingChoiceTest {
    @Test
    void embeddedRunsLogWithoutLog4j() {
        for (String line : List.of(
                "expand --input a.npy --dialect numpy --shape 8,4 --output /tmp/out",
                "expand --input file:/tmp/a.npy --dialect numpy --shape 8,4 --output=FILE:///tmp/out --format zarr",
                "broadcast-tensors --input a.npy --input b.npy --dialect numpy --output out",
                "reduce --input g.npy --dialect numpy --input-shape [1,16] --shape [64,16] --output s.npy",
                "expand --input a.npy --dialect numpy --shape 8,4 --conf spark.hadoop.fs.s3a.endpoint=http://h:9000"
                        + " --format null",
                "expand --input a.npy --dialect numpy --shape 8,4 --conf=spark.hadoop.fs.s3a.path.style.access=true",
                "plan --dialect numpy --input-shape [1,16] --shape [64,16]",
                "demo",
                "inspect out",
                "verify out",
                "export out --output x.npy")) {
            assertThat(LoggingChoice.sparkFree(List.of(line.split(" "))))
                    .as(line)
                    .isTrue();
        }
    }

    @Test
    void runsThatMayStartSparkKeepLog4j() {
        for (String line : List.of(
                "expand --input a.npy --dialect numpy --shape 8,4 --master local[*]",
                "expand --input a.npy --dialect numpy --shape 8,4 --master=yarn",
                "expand --input a.npy --dialect numpy --shape 8,4 --conf spark.executor.memory=2g",
                "expand --input a.npy --dialect numpy --shape 8,4 --conf=spark.sql.shuffle.partitions=2",
                "expand --input a.npy --dialect numpy --shape 8,4 --conf",
                "expand --input a.npy --dialect numpy --shape 8,4 --output s3a://bucket/out",
                "expand --input a.npy --dialect numpy --shape 8,4 --output=hdfs:/out",
                "expand --input s3a://bucket/a.npy --dialect numpy --shape 8,4 --output /tmp/out",
                "expand @arguments.txt",
                "cluster start",
                "--help",
                "")) {
            assertThat(LoggingChoice.sparkFree(line.isEmpty() ? List.of() : List.of(line.split(" "))))
                    .as(line)
                    .isFalse();
        }
    }

    @Test
    void aDriverOfSparkSubmitKeepsLog4j() {
        List<String> embedded = List.of("expand", "--input", "a.npy", "--dialect", "numpy", "--shape", "8,4");
        assertThat(LoggingChoice.sparkFree(embedded)).isTrue();
        System.setProperty("spark.master", "yarn");
        try {
            assertThat(LoggingChoice.sparkFree(embedded)).isFalse();
        } finally {
            System.clearProperty("spark.master");
        }
    }
}
