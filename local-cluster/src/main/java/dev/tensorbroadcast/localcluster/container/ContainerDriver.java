package dev.tensorbroadcast.localcluster.container;

import static java.util.Objects.requireNonNull;

import com.github.dockerjava.api.command.WaitContainerResultCallback;
import com.github.dockerjava.api.exception.DockerClientException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame.OutputType;

/**
 * A Spark application submitted in client mode from its own container on the cluster's network: the driver runs
 * there, as it would on a gateway host of a real cluster. Closing it removes the container.
 */
public final class ContainerDriver implements AutoCloseable {
    private final GenericContainer<?> container;

    ContainerDriver(GenericContainer<?> container) {
        this.container = requireNonNull(container, "container is null");
    }

    public boolean running() {
        return container.isRunning();
    }

    /** Waits until the driver's JVM exits; fails when it is still running after {@code timeout}. */
    public DriverExit await(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        Integer exitCode;
        try {
            exitCode = container
                    .getDockerClient()
                    .waitContainerCmd(container.getContainerId())
                    .exec(new WaitContainerResultCallback())
                    .awaitStatusCode(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (DockerClientException e) {
            throw new IllegalStateException(
                    "Cannot wait for driver container " + container.getContainerName() + ": still running after "
                            + timeout + "; its output so far:\n" + output(),
                    e);
        }
        return new DriverExit(exitCode, container.getLogs(OutputType.STDOUT), container.getLogs(OutputType.STDERR));
    }

    /** Everything the driver printed so far, standard output and error interleaved. */
    public String output() {
        return container.getLogs();
    }

    @Override
    public void close() {
        container.stop();
    }
}
