package dev.tensorbroadcast.job.cli;

import picocli.CommandLine.Model.CommandSpec;

/** Wiring shared by the subcommands that run Spark. */
final class SparkCommands {
    private SparkCommands() {}

    static SparkRun run(CommandSpec spec, WriteOptions write, OutputOptions output) {
        write.partitioning.check(spec);
        // a progress line only makes sense on a terminal: System.console() is null when a stream is redirected
        boolean interactive = System.console() != null && TensorBroadcastCli.onConsole(spec.commandLine().getErr());
        return new SparkRun(write, output, spec.commandLine().getOut(), spec.commandLine().getErr(), interactive);
    }
}
