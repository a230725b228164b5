package dev.tensorbroadcast.job.base;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class ReasonsTest {
    @Test
    void givesTheFirstLineOrTheType() {
        assertThat(Reasons.of(new IOException("disk full\n\tat somewhere"))).isEqualTo("disk full");
        assertThat(Reasons.of(new IOException())).isEqualTo("IOException");
        assertThat(Reasons.of(new IllegalStateException(" "))).isEqualTo("IllegalStateException");
    }

    /** A refusal quoted as another's reason still reads in the words of whoever reads the outer one. */
    @Test
    void keepsARefusalsParameterMentionsForTheMessageThatQuotesIt() {
        InvalidRequestException inner = new InvalidRequestException("Cannot use " + Param.MAX_OUTPUT.given("1024L",
                "1k") + ": too small");
        InvalidRequestException outer = new InvalidRequestException("Cannot reduce: " + Reasons.of(inner));

        assertThat(outer.getMessage()).isEqualTo("Cannot reduce: Cannot use maxOutputBytes(1024L): too small");
        assertThat(outer.commandLineMessage()).isEqualTo("Cannot reduce: Cannot use --max-output 1k: too small");
    }
}
