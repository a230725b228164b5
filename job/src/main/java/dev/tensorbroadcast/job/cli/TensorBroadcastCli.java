package dev.tensorbroadcast.job.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
@Command(
        name = "tensor-broadcast",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Materializes huge tensor broadcasts with the shape rules of numpy, PyTorch, Paddle, MindSpore,"
                + " ONNX, OpenVINO and nGraph.",
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast demo",
            "Writes a small source and its broadcast, then says how to read them. 'tensor-broadcast <command> --help'"
                    + " shows each command's options and an example."
        })
public final class TensorBroadcastCli implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /**
     * The subcommands by name, in the order the help lists them. They are added in code, not by the annotation, so a
     * run of one builds only that one's model: picocli reading all nine with their options costs a plan about a
     * third of its time (docs/benchmarks.md, issue 28).
     */
    private static final Map<String, Class<?>> SUBCOMMANDS = subcommands();

    private static Map<String, Class<?>> subcommands() {
        Map<String, Class<?>> subcommands = new LinkedHashMap<>();
        subcommands.put("plan", PlanCommand.class);
        subcommands.put("expand", ExpandCommand.class);
        subcommands.put("broadcast-tensors", BroadcastTensorsCommand.class);
        subcommands.put("reduce", ReduceCommand.class);
        subcommands.put("demo", DemoCommand.class);
        subcommands.put("inspect", InspectCommand.class);
        subcommands.put("verify", VerifyCommand.class);
        subcommands.put("export", ExportCommand.class);
        subcommands.put("cluster", ClusterCommand.class);
        return Collections.unmodifiableMap(subcommands);
    }

    private static final String LOG_CONFIG = "log4j2.configurationFile";
    /** The command line's log configuration, next to this class. */
    static final String QUIET_CONFIG = "log4j2-quiet.properties";
    /** The level of Spark's lines about failed tasks in the quiet configuration: off, or error with --verbose. */
    static final String TASK_LOG = "tensorbroadcast.task.log";

    /** The stderr writer of a run on the real stderr, where a progress line may be drawn. */
    private static volatile PrintWriter consoleErr;

    public static void main(String[] args) {
        // picocli's factory looks for Groovy's Closure class when it starts: on our class path that is a search
        // through every jar (over 200) for a class none of them holds
        System.setProperty("picocli.disable.closures", "true");
        if (quietLogging()) {
            if (java.util.Arrays.asList(args).contains(OutputOptions.VERBOSE)) {
                System.setProperty(TASK_LOG, "error");
            }
            // the same configuration's levels, without log4j, for a run that starts no Spark
            if (LoggingChoice.sparkFree(List.of(args))) {
                LoggingChoice.useQuietProvider();
            }
        }
        Interruption.install();
        SparkSessions.ownJvm();
        int exitCode;
        try {
            exitCode = run(args, System.out, System.err);
            if (Interruption.signalled() && exitCode == ExitCode.OK && consoleErr != null) {
                // the signal came while a job committed, which finishes before the JVM ends (CommitWindow); said
                // before the hook lets the JVM go
                consoleErr.println("interrupted: the signal came while the job committed, and the commit finished"
                        + " first; what it wrote is complete");
                consoleErr.flush();
            }
        } finally {
            // also when an Error escapes the command: a signal while Spark starts has Spark's classes fail to add
            // their shutdown hooks (ExceptionInInitializerError), and the hook would otherwise wait its 30 s for
            // a report that never comes before the JVM may exit with the signal's code
            Interruption.finished();
        }
        if (Interruption.signalled()) {
            // not a return: the signal's handler may not have reached its System.exit yet (a job in the driver's
            // threads stops as soon as the signal is seen), and a main that returned first had the JVM end with 0.
            // If the shutdown has begun, this waits for it (the hooks no longer wait for us) and its code stands.
            System.exit(Interruption.exitCode());
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
        java.net.URL quiet = TensorBroadcastCli.class.getResource(QUIET_CONFIG);
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
            return commandLine(outWriter, errWriter, args).execute(args);
        } finally {
            outWriter.flush();
            errWriter.flush();
        }
    }

    /** The whole command tree, as the top-level help, a missing or mistyped subcommand need it. */
    static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return configured(tree(SUBCOMMANDS.values()), out, err);
    }

    /**
     * The command line that parses {@code args}: when they start with a subcommand's name, the top level with that
     * subcommand alone, which says and does for these arguments all that the whole tree would (the other
     * subcommands' names only appear in the top level's own help and errors); else the whole tree.
     */
    static CommandLine commandLine(PrintWriter out, PrintWriter err, String[] args) {
        Class<?> only = args.length == 0 ? null : SUBCOMMANDS.get(args[0]);
        return only == null ? commandLine(out, err) : configured(tree(List.of(only)), out, err);
    }

    private static CommandLine tree(Collection<Class<?>> subcommands) {
        CommandLine commandLine = new CommandLine(new TensorBroadcastCli());
        for (Class<?> subcommand : subcommands) {
            commandLine.addSubcommand(subcommand);
        }
        return commandLine;
    }

    /** Settings reach the subcommands present when they are made, so the tree is complete before. */
    private static CommandLine configured(CommandLine commandLine, PrintWriter out, PrintWriter err) {
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
        List<String> names = List.copyOf(spec.subcommands().keySet());
        String expected = names.size() == 1
                ? names.get(0)
                : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
        throw new ParameterException(spec.commandLine(), "Missing subcommand: expected " + expected);
    }
}
