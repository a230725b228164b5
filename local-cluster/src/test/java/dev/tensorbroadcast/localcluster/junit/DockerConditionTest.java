package dev.tensorbroadcast.localcluster.junit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;

/** The container tests' skip is said on the console, with its reason; a run with Docker says nothing. */
class DockerConditionTest {
    @Test
    void withoutDockerTheClassIsSkippedAndTheConsoleSaysWhy() {
        ByteArrayOutputStream console = new ByteArrayOutputStream();

        ConditionEvaluationResult result =
                DockerCondition.decide("ContainerClusterIT", false, new PrintStream(console, true, UTF_8));

        assertThat(result.isDisabled()).isTrue();
        assertThat(result.getReason()).contains(DockerCondition.REASON);
        assertThat(console.toString(UTF_8))
                .isEqualTo("[skipped] ContainerClusterIT: no Docker engine answers"
                        + " (DOCKER_HOST, /var/run/docker.sock)" + System.lineSeparator());
    }

    @Test
    void withDockerTheClassRunsQuietly() {
        ByteArrayOutputStream console = new ByteArrayOutputStream();

        ConditionEvaluationResult result =
                DockerCondition.decide("ContainerClusterIT", true, new PrintStream(console, true, UTF_8));

        assertThat(result.isDisabled()).isFalse();
        assertThat(console.size()).isZero();
    }
}
