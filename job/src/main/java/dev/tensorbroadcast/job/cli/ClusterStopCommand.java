package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code cluster stop}: asks the {@code cluster start} process to stop its cluster (SIGTERM, which runs its
 * shutdown hook) and waits for it; whatever of the cluster is still alive after that is killed by its recorded pid.
 */
@Command(
        name = "stop",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Stops the local cluster 'tensor-broadcast cluster start' runs; nothing to do is no error.",
        footerHeading = "%nExample:%n",
        footer = {"  tensor-broadcast cluster stop"})
final class ClusterStopCommand implements Callable<Integer> {
    /** The starter stops workers, master and HDFS with a grace period each; this covers them. */
    private static final Duration STARTER_EXIT = Duration.ofSeconds(60);

    @Spec
    CommandSpec spec;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        Optional<ClusterState> recorded = states.read();
        if (recorded.isEmpty()) {
            if (output.json) {
                output.emit(
                        spec.commandLine().getOut(),
                        () -> Json.MAPPER.createObjectNode().put("stopped", false),
                        text -> {});
            } else {
                spec.commandLine()
                        .getErr()
                        .println("no local cluster is running (nothing recorded in " + states.path() + ")");
            }
            return ExitCode.OK;
        }
        ClusterState state = recorded.get();
        Optional<ProcessHandle> owner = state.owner().live();
        if (owner.isPresent()) {
            owner.get().destroy();
            try {
                owner.get().onExit().get(STARTER_EXIT.toSeconds(), TimeUnit.SECONDS);
            } catch (TimeoutException | ExecutionException e) {
                owner.get().destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterFailedException(
                        "Cannot stop the local cluster at " + state.masterUrl() + ": interrupted");
            }
        }
        List<Long> left = stopLeftovers(state);
        states.clear(state.owner().pid());
        if (!left.isEmpty()) {
            throw new ClusterFailedException("Cannot stop the local cluster at " + state.masterUrl() + ": processes "
                    + left + " are still alive");
        }
        output.emit(
                spec.commandLine().getOut(),
                () -> Json.MAPPER.createObjectNode().put("stopped", true).put("master_url", state.masterUrl()),
                text -> {
                    text.println("stopped the local cluster at " + state.masterUrl());
                    // the S3 server kept its objects in the cluster's directory, which went with it, or in the
                    // directory --s3-data named, which stays
                    state.s3()
                            .ifPresent(s3 -> text.println(s3.kept()
                                    .map(data -> "kept the objects of its S3"
                                            + " server's bucket s3a://" + s3.bucket() + "/ in "
                                            + data.resolve(s3.bucket())
                                            + " (--s3-data " + data + " serves them again)")
                                    .orElse("deleted the objects of its S3 server's bucket s3a://" + s3.bucket()
                                            + "/ with the cluster's directory")));
                });
        return ExitCode.OK;
    }

    /** Kills what is left of a cluster whose starter is gone; returns the pids still alive after that. */
    static List<Long> stopLeftovers(ClusterState state) {
        List<ProcessHandle> alive = state.processes().stream()
                .map(ClusterState.ClusterProcess::live)
                .flatMap(Optional::stream)
                .toList();
        for (ProcessHandle process : alive) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        for (ProcessHandle process : alive) {
            try {
                process.onExit().get(10, TimeUnit.SECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // reported below as still alive
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return alive.stream()
                .filter(ProcessHandle::isAlive)
                .map(ProcessHandle::pid)
                .toList();
    }
}
