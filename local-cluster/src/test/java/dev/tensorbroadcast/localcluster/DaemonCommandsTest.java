package dev.tensorbroadcast.localcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Where workers bind: all on 127.0.0.1, or each on a loopback address of its own, never the master's. */
class DaemonCommandsTest {
    @Test
    void workersShareTheLoopbackAddressUnlessAskedForHostsOfTheirOwn() {
        assertThat(IntStream.range(0, 3).mapToObj(i -> DaemonCommands.workerAddress(i, false)))
                .containsExactly("127.0.0.1", "127.0.0.1", "127.0.0.1");
        assertThat(IntStream.range(0, 3).mapToObj(i -> DaemonCommands.workerAddress(i, true)))
                .containsExactly("127.0.0.2", "127.0.0.3", "127.0.0.4");
    }
}
