package dev.tensorbroadcast.job.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ReasonsTest {
    @Test
    void givesTheFirstLineOrTheType() {
        assertThat(Reasons.of(new IOException("disk full\n\tat somewhere"))).isEqualTo("disk full");
        assertThat(Reasons.of(new IOException())).isEqualTo("IOException");
        assertThat(Reasons.of(new IllegalStateException(" "))).isEqualTo("IllegalStateException");
    }
}
