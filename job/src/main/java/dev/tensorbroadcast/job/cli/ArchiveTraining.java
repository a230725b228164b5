package dev.tensorbroadcast.job.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The run the launcher makes once per build under {@code -XX:DumpLoadedClassList}, so that its class-data archive
 * holds the classes both kinds of run load: a small expand on Spark into Arrow files (Spark's classes), then the same
 * into Parquet files and a reduce into a {@code .npy}, each in this process without Spark (Parquet's writer and the
 * reduce). One command line could load only one of these. With {@code embedded}, the archive of runs that start no
 * Spark: expands into Arrow IPC, Parquet and Zarr with zstd and a reduce, logging as such a run logs
 * ({@link LoggingChoice}). Arguments: a {@code .npy} of shape [1,4096], an empty directory to write into, then
 * optionally {@code embedded}. Exits 0 when every run succeeded.
 */
public final class ArchiveTraining {
    private static final String EMBEDDED = "embedded";

    private ArchiveTraining() {}

    public static void main(String[] args) {
        if (args.length < 2 || args.length > 3 || (args.length == 3 && !args[2].equals(EMBEDDED))) {
            System.err.println("usage: ArchiveTraining <row4096.npy> <empty directory> [embedded]");
            System.exit(2);
        }
        TensorBroadcastCli.quietLogging();
        SparkSessions.ownJvm();
        String source = args[0];
        String work = args[1];
        String[][] commands = args.length == 3 ? embedded(source, work) : withSpark(source, work);
        if (args.length == 3) {
            LoggingChoice.useQuietProvider();
        }
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream(), true);
        int failed = 0;
        for (String[] command : commands) {
            failed += TensorBroadcastCli.run(command, quiet, quiet) == ExitCode.OK ? 0 : 1;
        }
        System.exit(failed == 0 ? 0 : 1);
    }

    private static String[][] withSpark(String source, String work) {
        return new String[][] {
            expand(source, work + "/spark", "--format", "arrow", "--master", "local[2]"),
            expand(source, work + "/parquet", "--format", "parquet"),
            reduce(source, work)
        };
    }

    private static String[][] embedded(String source, String work) {
        return new String[][] {
            expand(source, work + "/arrow", "--format", "arrow", "--compression", "zstd"),
            expand(source, work + "/parquet", "--format", "parquet", "--compression", "zstd"),
            expand(source, work + "/zarr", "--format", "zarr", "--compression", "zstd", "--chunks", "32,4096"),
            reduce(source, work)
        };
    }

    private static String[] expand(String source, String output, String... options) {
        List<String> command = new ArrayList<>(List.of(
                "expand",
                "--input",
                source,
                "--dialect",
                "numpy",
                "--shape",
                "64,4096",
                "--partitions",
                "2",
                "--output",
                output,
                "--json"));
        command.addAll(List.of(options));
        return command.toArray(String[]::new);
    }

    private static String[] reduce(String source, String work) {
        return new String[] {
            "reduce",
            "--input",
            source,
            "--dialect",
            "numpy",
            "--input-shape",
            "[1,1]",
            "--shape",
            "[1,4096]",
            "--output",
            work + "/sum.npy",
            "--json"
        };
    }
}
