package dev.tensorbroadcast.job.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code tensor-broadcast} command: each subcommand is a small class of its own. {@link #run} is the whole
 * program, so tests call it in-process; {@link #main} only turns its result into the exit status.
 */
@Command(name = "tensor-broadcast",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Materializes huge tensor broadcasts with the shape rules of numpy, PyTorch, Paddle, MindSpore,"
                + " ONNX, OpenVINO and nGraph.",
        subcommands = {PlanCommand.class, ExpandCommand.class, BroadcastTensorsCommand.class, ReduceCommand.class,
                DemoCommand.class, InspectCommand.class, VerifyCommand.class, ExportCommand.class, ClusterCommand.class},
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast demo",
            "Writes a small source and its broadcast, then says how to read them. 'tensor-broadcast <command> --help'"
                    + " shows each command's options and an example."
        })
public final class TensorBroadcastCli implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private static final String LOG_CONFIG = "log4j2.configurationFile";
    /** The level of Spark's lines about failed tasks in the quiet configuration: off, or error with --verbose. */
    static final String TASK_LOG = "tensorbroadcast.task.log";

    /** The stderr writer of a run on the real stderr, where a progress line may be drawn. */
    private static volatile PrintWriter consoleErr;

    public static void main(String[] args) {
        if (quietLogging() && java.util.Arrays.asList(args).contains(OutputOptions.VERBOSE)) {
            System.setProperty(TASK_LOG, "error");
        }
        Interruption.install();
        SparkSessions.ownJvm();
        int exitCode = run(args, System.out, System.err);
        Interruption.finished();
        // once a signal has begun the JVM's shutdown, System.exit would wait forever; the signal's code stands
        if (Interruption.signalled()) {
            return;
        }
        // a driver in YARN's application master (spark-submit --deploy-mode cluster) that exits the JVM itself has
        // YARN report the application FAILED: its success is returning from main
        if (exitCode == ExitCode.OK && "cluster".equals(System.getProperty("spark.submit.deployMode"))) {
            return;
        }
        System.exit(exitCode);
    }

    /**
     * Spark and Hadoop log only warnings and errors that matter, so a user sees our lines; must precede logging.
     * Returns whether the quiet configuration applies (none was given).
     */
    static boolean quietLogging() {
        if (System.getProperty(LOG_CONFIG) != null) {
            return false;
        }
        java.net.URL quiet = TensorBroadcastCli.class.getResource("log4j2-quiet.properties");
        if (quiet != null) {
            System.setProperty(LOG_CONFIG, quiet.toString());
        }
        return true;
    }

    static boolean onConsole(PrintWriter err) {
        return err == consoleErr;
    }

    /** Runs the command line and returns its exit code: {@link ExitCode}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        PrintWriter outWriter = new PrintWriter(new OutputStreamWriter(out, UTF_8), true);
        PrintWriter errWriter = new PrintWriter(new OutputStreamWriter(err, UTF_8), true);
        if (err == System.err) {
            consoleErr = errWriter;
        }
        try {
            return commandLine(outWriter, errWriter).execute(args);
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new TensorBroadcastCli());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler(ErrorReporter::handleUsageError);
        commandLine.setExecutionExceptionHandler(ErrorReporter::handleExecutionError);
        // help wraps at the terminal's width (80 columns where there is none); no text breaks its own lines
        commandLine.setUsageHelpAutoWidth(true);
        return commandLine;
    }

    @Override
    public Integer call() {
        java.util.List<String> names = java.util.List.copyOf(spec.subcommands().keySet());
        String expected = names.size() == 1 ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
        throw new ParameterException(spec.commandLine(), "Missing subcommand: expected " + expected);
    }
}
