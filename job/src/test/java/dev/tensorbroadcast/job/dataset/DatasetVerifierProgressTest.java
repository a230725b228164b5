package dev.tensorbroadcast.job.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.base.HeardProgress;
import dev.tensorbroadcast.planner.Shape;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** verify --source reports how far it is as expand's jobs do: one partition a file, the bytes of values checked. */
class DatasetVerifierProgressTest {
    @TempDir
    Path tmp;

    @Test
    void comparingWithTheSourceTellsTheProgressFileByFile() throws Exception {
        Path dir = tmp.resolve("out");
        // (1,3) to (4,3) float32 in two files of two rows (24 bytes of values each), batches of one row
        TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1.5f), new long[] {4, 3}, "arrow", 2);
        HeardProgress heard = new HeardProgress();

        VerifyReport report;
        try (DatasetDirectory dataset = DatasetDirectory.open(dir.toString(), new Configuration(), "verify")) {
            report = new DatasetVerifier(dataset).verify(Optional.of(TestDatasets.floats(Shape.of(1, 3), 1.5f)), heard);
        }

        assertThat(report.ok()).as("%s", report.problems()).isTrue();
        assertThat(heard.events().get(0)).isEqualTo("started verify 2 48");
        assertThat(heard.events()).contains("advanced 1 24", "advanced 2 48");
        assertThat(heard.events().get(heard.events().size() - 1)).isEqualTo("finished");
        // never back, never past the total
        long last = 0;
        for (String event : heard.events().subList(1, heard.events().size() - 1)) {
            long bytes = Long.parseLong(event.substring(event.lastIndexOf(' ') + 1));
            assertThat(bytes).isBetween(last, 48L);
            last = bytes;
        }
    }
}
