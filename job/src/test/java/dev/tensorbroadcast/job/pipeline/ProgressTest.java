package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.planner.Dialect;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Progress moves batch by batch, not only when a partition ends: one partition of a slow file is heard running. */
class ProgressTest {
    @RegisterExtension
    static final SparkPerClass SPARK = new SparkPerClass();

    @TempDir
    Path dir;

    /** What a job said, in order: partitions done and bytes of values done. */
    private static final class Recorder implements Progress {
        final List<long[]> heard = new ArrayList<>();
        long planned;

        @Override
        public synchronized void started(String description, long partitions, long bytes) {
            planned = bytes;
        }

        @Override
        public synchronized void advanced(long partitionsDone, long valueBytes) {
            heard.add(new long[] {partitionsDone, valueBytes});
        }

        @Override
        public void finished() {}
    }

    @Test
    void aRunningPartitionReportsItsWrittenBatches() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 1024});
        Recorder recorder = new Recorder();
        // one partition of 16 MiB in 17 batches of about 1 MiB (247 rows of 4 KiB), 300 ms after each: about 5 s in
        // one task, several heartbeats of the tests' session (every second, the first within two)
        SPARK.session().sparkContext().setLocalProperty("tensorbroadcast.test.batchDelayMillis", "300");
        try {
            TensorBroadcast.builder()
                    .source(source.toString())
                    .dialect(Dialect.NUMPY)
                    .shape(4096, 1024)
                    .partitions(1)
                    .rowGroupBytes(1L << 20)
                    .output(dir.resolve("out").toString())
                    .build()
                    .prepare(SPARK.session().sparkContext().hadoopConfiguration())
                    .run(SPARK.session(), recorder);
        } finally {
            SPARK.session().sparkContext().setLocalProperty("tensorbroadcast.test.batchDelayMillis", null);
        }

        List<long[]> heard;
        synchronized (recorder) {
            heard = List.copyOf(recorder.heard);
        }
        assertThat(recorder.planned).isEqualTo(16L << 20);
        // heard while the only partition ran: some of its values, not all
        assertThat(heard).anySatisfy(report -> {
            assertThat(report[0]).isZero();
            assertThat(report[1]).isBetween(1L, (16L << 20) - 1);
        });
        assertThat(heard.get(heard.size() - 1)).containsExactly(1, 16L << 20);
        for (int i = 1; i < heard.size(); i++) {
            assertThat(heard.get(i)[1]).as("report %d never goes back", i).isGreaterThanOrEqualTo(heard.get(i - 1)[1]);
        }
    }
}
