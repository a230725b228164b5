package dev.tensorbroadcast.job.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cluster}: a real Spark standalone or YARN cluster on this machine, to run the job on before a real one. */
@Command(
        name = "cluster",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Runs a Spark standalone cluster, or YARN with 'start --yarn' (and optionally HDFS), on this machine.",
            "A master and workers (or a ResourceManager and NodeManagers) run as separate JVMs on 127.0.0.1, with"
                    + " authentication on; 'expand --master local-cluster' runs on it."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast cluster start --workers 2",
            "  tensor-broadcast expand --input examples/row4096.npy --dialect numpy \\",
            "      --shape 1000,4096 --output /tmp/tb/numpy --master local-cluster",
            "  tensor-broadcast cluster stop",
            "Runs the cluster in one terminal until stopped, and a job on it from another."
        },
        subcommands = {ClusterStartCommand.class, ClusterStatusCommand.class, ClusterStopCommand.class})
final class ClusterCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "Missing subcommand: expected start, status or stop");
    }
}
