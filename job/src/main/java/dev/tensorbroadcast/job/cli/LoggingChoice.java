package dev.tensorbroadcast.job.cli;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether a command line's run logs through {@link QuietLogProvider} instead of log4j: only when its arguments rule out
 * Spark in this JVM. Decided from the arguments before anything logs, since SLF4J binds once; where they leave any
 * doubt (a master, a Spark setting, a location with a scheme other than {@code file:}, an argument file, a subcommand
 * that may start Spark otherwise) the run keeps log4j, which only costs the start this saves.
 */
final class LoggingChoice {
    static final String PROVIDER = "slf4j.provider";
    private static final String VERBOSITY = "slf4j.internal.verbosity";

    /** The subcommands that start Spark only through {@link EngineChoice}; {@code cluster} starts a cluster. */
    private static final Set<String> SPARK_FREE_COMMANDS =
            Set.of("plan", "expand", "broadcast-tensors", "reduce", "demo", "inspect", "verify", "export");

    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*", Pattern.DOTALL);
    private static final String HADOOP_SETTING = "spark.hadoop.";

    private LoggingChoice() {}

    /** Binds SLF4J to {@link QuietLogProvider}, unless a binding was chosen already. */
    static void useQuietProvider() {
        if (System.getProperty(PROVIDER) == null) {
            System.setProperty(PROVIDER, QuietLogProvider.class.getName());
            // SLF4J says at INFO which provider a system property named; log4j's binding said nothing
            if (System.getProperty(VERBOSITY) == null) {
                System.setProperty(VERBOSITY, "WARN");
            }
        }
    }

    /**
     * Whether a run of {@code args} in this JVM cannot start Spark, by {@link EngineChoice#whySpark}'s reasons: no
     * application is there already (spark-submit's {@code spark.master}), and the arguments name none of the others.
     */
    static boolean sparkFree(List<String> args) {
        if (System.getProperty("spark.master") != null
                || args.isEmpty()
                || !SPARK_FREE_COMMANDS.contains(args.get(0))) {
            return false;
        }
        for (int i = 1; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.startsWith("@") || arg.equals("--master") || arg.startsWith("--master=")) {
                return false;
            }
            if (arg.equals("--conf") || arg.startsWith("--conf=")) {
                String setting = arg.equals("--conf")
                        ? (i + 1 < args.size() ? args.get(i + 1) : "")
                        : arg.substring("--conf=".length());
                if (!setting.startsWith(HADOOP_SETTING)) {
                    return false;
                }
            }
            String value = arg.startsWith("-") && arg.contains("=") ? arg.substring(arg.indexOf('=') + 1) : arg;
            if (SCHEME.matcher(value).matches() && !value.regionMatches(true, 0, "file:", 0, "file:".length())) {
                return false;
            }
        }
        return true;
    }
}
