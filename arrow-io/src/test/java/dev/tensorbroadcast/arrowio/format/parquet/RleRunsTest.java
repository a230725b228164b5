package dev.tensorbroadcast.arrowio.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RleRunsTest {
    @Test
    void prefixesTheRunsWithTheirLengthInTheReusedBuffer() throws Exception {
        RleRuns runs = new RleRuns(2);
        runs.reset();
        runs.add(2, 3);
        runs.add(2, 2);
        runs.add(1, 200);
        // run (5 x 2): header 10, value 2; run (200 x 1): varint 400 = 0x90 0x03, value 1
        assertThat(runs.finishWithLength().toByteArray()).containsExactly(5, 0, 0, 0, 10, 2, 0x90 - 256, 3, 1);
        assertThat(runs.levels()).isEqualTo(205);

        runs.reset();
        runs.add(0, 1);
        assertThat(runs.finishWithLength().toByteArray()).containsExactly(2, 0, 0, 0, 2, 0);
        assertThat(runs.levels()).isEqualTo(1);
    }
}
