package dev.tensorbroadcast.job.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.base.DatasetException;
import dev.tensorbroadcast.job.sink.NpyWriter;
import dev.tensorbroadcast.planner.Shape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NpyExporterTest {
    @TempDir
    Path tmp;

    @Test
    void refusesArraysOverTheLimitBeforeWritingAnything() throws Exception {
        Path dir = tmp.resolve("out");
        TestDatasets.write(dir, TestDatasets.floats(Shape.of(1, 3), 1), new long[] {4, 3}, "arrow", 2);

        try (DatasetDirectory dataset = DatasetDirectory.open(dir.toString(), new Configuration(false), "export")) {
            assertThatThrownBy(() -> new NpyExporter(dataset, 47).export(tmp.resolve("x.npy"), false))
                    .isInstanceOf(DatasetException.class)
                    .hasMessage("Cannot export " + dir + " to .npy: the array would be 48 bytes, more than the limit"
                            + " of 47 bytes; pass a larger maxBytes to write it anyway")
                    // the command line names its flag instead
                    .satisfies(e -> assertThat(((DatasetException) e).commandLineMessage())
                            .endsWith("pass --force to write it anyway"));
            assertThat(new NpyExporter(dataset, 48)
                            .export(tmp.resolve("y.npy"), false)
                            .bytes())
                    .isEqualTo(128 + 48);
        }
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(path -> path.getFileName().toString())).containsExactlyInAnyOrder("out", "y.npy");
        }
    }

    @Test
    void headersAreNumpysAndAligned() {
        assertThat(new String(NpyWriter.header("<f4", Shape.of(3)), java.nio.charset.StandardCharsets.ISO_8859_1))
                .startsWith("\u0093NUMPY\u0001\u0000\u0076\u0000{'descr': '<f4', 'fortran_order': False,"
                        + " 'shape': (3,), }")
                .endsWith(" \n")
                .hasSize(128);
        assertThat(new String(NpyWriter.header("|b1", Shape.scalar()), java.nio.charset.StandardCharsets.ISO_8859_1))
                .contains("'shape': (), }")
                .hasSize(128);
    }
}
