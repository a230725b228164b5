package dev.tensorbroadcast.job.cli;

import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The run the launcher makes once per build under {@code -XX:DumpLoadedClassList}, so that its class-data archive
 * holds the classes both kinds of run load: a small expand on Spark into Arrow files (Spark's classes), then the same
 * into Parquet files and a reduce into a {@code .npy}, each in this process without Spark (Parquet's writer and the
 * reduce). One command line could load only one of these. Arguments: a {@code .npy} of shape [1,4096] and an empty
 * directory to write into. Exits 0 when every run succeeded.
 */
public final class ArchiveTraining {
    private ArchiveTraining() {}

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: ArchiveTraining <row4096.npy> <empty directory>");
            System.exit(2);
        }
        TensorBroadcastCli.quietLogging();
        SparkSessions.ownJvm();
        String source = args[0];
        String work = args[1];
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream(), true);
        int failed = 0;
        for (String[] command : new String[][] {
            {
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
                work + "/spark",
                "--json",
                "--master",
                "local[2]"
            },
            {
                "expand",
                "--input",
                source,
                "--dialect",
                "numpy",
                "--shape",
                "64,4096",
                "--partitions",
                "2",
                "--format",
                "parquet",
                "--output",
                work + "/parquet",
                "--json"
            },
            {
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
            }
        }) {
            failed += TensorBroadcastCli.run(command, quiet, quiet) == ExitCode.OK ? 0 : 1;
        }
        System.exit(failed == 0 ? 0 : 1);
    }
}
