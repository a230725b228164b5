package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.localcluster.ClusterState;
import dev.tensorbroadcast.localcluster.ClusterStateDirectory;
import dev.tensorbroadcast.localcluster.MasterStatus;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code cluster status}: whether the local cluster runs, where, and how many workers its master counts. */
@Command(name = "status",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {"Prints the local cluster's master URL, live workers, HDFS URI and secret file.",
            "Exit code 0: it runs; 3: no cluster runs."})
final class ClusterStatusCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        ClusterStateDirectory states = ClusterStateDirectory.locate();
        Optional<ClusterState> recorded = states.read();
        PrintWriter out = spec.commandLine().getOut();
        if (recorded.isEmpty() || recorded.get().owner().live().isEmpty()) {
            out.println("no local cluster is running" + recorded.map(state -> " (the one recorded at "
                    + state.masterUrl() + " is gone; 'tensor-broadcast cluster stop' cleans up)").orElse(""));
            return ExitCode.NOT_RUNNING;
        }
        ClusterState state = recorded.get();
        Optional<MasterStatus> master = MasterStatus.query(state.masterUiPort());
        out.println("master:      " + state.masterUrl() + master.map(status -> "").orElse(" (not answering)"));
        out.println("workers:     " + master.map(status -> status.aliveWorkers() + " alive of " + state.workers())
                .orElse("unknown"));
        out.println("running:     " + master.map(status -> status.activeApplications().size() + " application"
                + (status.activeApplications().size() == 1 ? "" : "s")).orElse("unknown"));
        out.println("web UI:      http://127.0.0.1:" + state.masterUiPort());
        state.hdfs().ifPresent(uri -> out.println("hdfs:        " + uri));
        out.println("secret file: " + state.secretFile());
        out.println("pid:         " + state.owner().pid());
        out.flush();
        return master.isPresent() ? ExitCode.OK : ExitCode.INTERNAL_ERROR;
    }
}
