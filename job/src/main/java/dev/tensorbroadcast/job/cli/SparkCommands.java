package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.arrowio.format.RowLayout;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Wiring shared by the subcommands that run Spark. */
final class SparkCommands {
    private SparkCommands() {}

    static SparkRun run(CommandSpec spec, DatasetOutputOptions target, WriteOptions write, OutputOptions output) {
        write.partitioning.check(spec);
        checkOutput(spec, target, write);
        // a progress line only makes sense on a terminal: System.console() is null when a stream is redirected
        @SuppressWarnings("SystemConsoleNull") // null on Java 17 when a stream is redirected (22+ would need
        // Console.isTerminal())
        boolean interactive = System.console() != null
                && TensorBroadcastCli.onConsole(spec.commandLine().getErr());
        return new SparkRun(
                target,
                write,
                output,
                spec.commandLine().getOut(),
                spec.commandLine().getErr(),
                interactive);
    }

    /** The null sink writes nothing, so it takes no option about files; every file format needs an output. */
    private static void checkOutput(CommandSpec spec, DatasetOutputOptions target, WriteOptions write) {
        if (target.discards()) {
            if (target.output != null) {
                throw new ParameterException(
                        spec.commandLine(),
                        "Cannot use --output with --format null: the null"
                                + " sink writes no files; drop --output, or give --format arrow or parquet");
            }
            if (!"none".equals(write.compression)) {
                throw new ParameterException(
                        spec.commandLine(),
                        "Cannot use --compression " + write.compression
                                + " with --format null: the null sink writes no files; drop --compression");
            }
            if (write.rowLayout() != RowLayout.FLAT) {
                throw new ParameterException(
                        spec.commandLine(),
                        "Cannot use --row-layout " + write.rowLayout
                                + " with --format null: the null sink writes no files; drop --row-layout");
            }
            if (write.overwrite) {
                throw new ParameterException(
                        spec.commandLine(),
                        "Cannot use --overwrite with --format null: the"
                                + " null sink writes no files; drop --overwrite");
            }
            for (String option : new String[] {
                WriteOptions.ENCODING,
                WriteOptions.ROW_GROUP_SIZE,
                WriteOptions.MAX_OUTPUT,
                WriteOptions.IGNORE_FREE_SPACE
            }) {
                ExclusiveOptions.refuseIfGiven(
                        spec, option, "with --format null", "the null sink writes no files;" + " drop " + option);
            }
            ExclusiveOptions.refuseIfGiven(
                    spec,
                    KeepOptions.KEEP,
                    "with --format null",
                    "the null sink computes" + " the tensor alone and reads no other column; drop " + KeepOptions.KEEP);
        } else if (target.output == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--output=<dir>'");
        }
    }
}
