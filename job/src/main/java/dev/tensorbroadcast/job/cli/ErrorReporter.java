package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.job.base.JobFailedException;
import dev.tensorbroadcast.job.commit.SetAside;
import dev.tensorbroadcast.localcluster.ClusterStateException;
import dev.tensorbroadcast.planner.BroadcastException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Reports a failure as one line on stderr, or as {@code {"error": {"kind", "message"}}} on stdout with
 * {@code --json}; the stack trace follows on stderr only with {@code --verbose}.
 */
final class ErrorReporter {
    static final String USAGE = "usage";
    static final String INTERNAL = "internal";
    static final String JOB_FAILED = "job_failed";
    static final String CLUSTER_FAILED = "cluster_failed";
    static final String INTERRUPTED = "interrupted";
    /** The kind of a refused request ({@code InvalidRequestException}), which a missing local cluster also is. */
    static final String INVALID_REQUEST = "invalid_request";

    private ErrorReporter() {}

    /** picocli could not parse the arguments, so {@code --json} and {@code --verbose} are looked up in the raw args. */
    static int handleUsageError(ParameterException error, String[] args) {
        CommandLine failed = error.getCommandLine();
        boolean json = Arrays.asList(args).contains(OutputOptions.JSON);
        boolean verbose = Arrays.asList(args).contains(OutputOptions.VERBOSE);
        String message = described(error) + hint(error) + "; see '"
                + failed.getCommandSpec().qualifiedName() + " --help'";
        return report(failed, json, verbose, USAGE, message, error, ExitCode.REFUSED);
    }

    /**
     * picocli's message, but an unknown option's values are not listed as options of their own: {@code --shpae 2,3}
     * is one unknown option, {@code '--shpae'}, not two.
     */
    private static String described(ParameterException error) {
        if (!(error instanceof UnmatchedArgumentException unmatched)
                || unmatched.getUnmatched().isEmpty()
                || !isOption(unmatched.getUnmatched().get(0))) {
            return error.getMessage();
        }
        List<String> options = unmatched.getUnmatched().stream()
                .filter(ErrorReporter::isOption)
                .toList();
        if (options.size() == unmatched.getUnmatched().size()) {
            return error.getMessage();
        }
        return "Unknown option" + (options.size() == 1 ? "" : "s") + ": "
                + String.join(
                        ", ", options.stream().map(option -> "'" + option + "'").toList());
    }

    /** A name such as {@code --shape} or {@code -v}; a negative number such as {@code -1} is a value. */
    private static boolean isOption(String argument) {
        return argument.length() > 1 && argument.charAt(0) == '-' && !Character.isDigit(argument.charAt(1));
    }

    /**
     * What the user probably meant: the nearest option or subcommand for a typo (picocli's suggestions), or the
     * quotes a shape with spaces needs, whose second half the shell made an argument of its own.
     */
    private static String hint(ParameterException error) {
        if (!(error instanceof UnmatchedArgumentException unmatched)
                || unmatched.getUnmatched().isEmpty()) {
            return "";
        }
        String typed = unmatched.getUnmatched().get(0);
        CommandSpec spec = unmatched.getCommandLine().getCommandSpec();
        Collection<String> names = typed.startsWith("-")
                ? spec.optionsMap().keySet()
                : spec.subcommands().keySet();
        List<String> near = names.stream()
                .filter(name -> Typos.distance(typed, name) <= Math.max(1, typed.length() / 3))
                .sorted(Comparator.comparingInt((String name) -> Typos.distance(typed, name))
                        .thenComparing(Comparator.naturalOrder()))
                .limit(2)
                .toList();
        if (!near.isEmpty()) {
            return "; did you mean " + String.join(" or ", near) + "?";
        }
        if (unmatched.getUnmatched().stream().anyMatch(argument -> argument.endsWith("]"))) {
            return "; a shape or axis list with spaces needs quotes, such as --shape '[2, 3]', or none: [2,3]";
        }
        return "";
    }

    static int handleExecutionError(Exception error, CommandLine failed, ParseResult parsed) {
        ParseResult leaf = parsed;
        while (leaf.hasSubcommand()) {
            leaf = leaf.subcommand();
        }
        boolean json = leaf.hasMatchedOption(OutputOptions.JSON);
        boolean verbose = leaf.hasMatchedOption(OutputOptions.VERBOSE);
        if (Interruption.signalled()) {
            // whatever Spark threw while it stopped under us, the cause is the signal
            // demo replaces its own dataset on every run; the others replace only when told to
            String rerun =
                    failed.getCommandSpec().findOption("--overwrite") != null ? "a rerun with --overwrite" : "a rerun";
            Optional<SetAside.Restored> restored = restored(error, new HashSet<>());
            if (restored.isPresent()) {
                // an --overwrite's old dataset was moved back: the output reads as it did before the run
                return report(
                        failed,
                        json,
                        verbose,
                        INTERRUPTED,
                        "interrupted: the job was stopped before it" + " committed; "
                                + restored.get().getMessage() + ", and nothing the job wrote remains",
                        error,
                        ExitCode.INTERRUPTED);
            }
            return report(
                    failed,
                    json,
                    verbose,
                    INTERRUPTED,
                    "interrupted: the job was stopped before it committed;"
                            + " nothing it has written reads as a dataset, and " + rerun + " replaces what is there",
                    error,
                    ExitCode.INTERRUPTED);
        }
        if (error instanceof BroadcastException refused) {
            // the library names a parameter for any reader; the command line says its flag
            return report(failed, json, verbose, refused.kind(), refused.commandLineMessage(), error, ExitCode.REFUSED);
        }
        if (error instanceof ClusterStateException state) {
            // the local cluster's state: as refused a request as a bad argument, and as easy to fix
            return report(failed, json, verbose, INVALID_REQUEST, state.getMessage(), error, ExitCode.REFUSED);
        }
        if (error instanceof JobFailedException jobFailure) {
            return report(failed, json, verbose, JOB_FAILED, jobFailure.getMessage(), error, ExitCode.INTERNAL_ERROR);
        }
        if (error instanceof ClusterFailedException clusterFailure) {
            return report(
                    failed, json, verbose, CLUSTER_FAILED, clusterFailure.getMessage(), error, ExitCode.INTERNAL_ERROR);
        }
        String message = "internal error: " + error;
        return report(failed, json, verbose, INTERNAL, message, error, ExitCode.INTERNAL_ERROR);
    }

    /** The note {@link SetAside#restore} left on the failure, among its causes or what they suppressed. */
    private static Optional<SetAside.Restored> restored(Throwable error, Set<Throwable> seen) {
        if (error == null || !seen.add(error)) {
            return Optional.empty();
        }
        if (error instanceof SetAside.Restored restored) {
            return Optional.of(restored);
        }
        for (Throwable suppressed : error.getSuppressed()) {
            Optional<SetAside.Restored> found = restored(suppressed, seen);
            if (found.isPresent()) {
                return found;
            }
        }
        return restored(error.getCause(), seen);
    }

    private static int report(
            CommandLine failed,
            boolean json,
            boolean verbose,
            String kind,
            String message,
            Throwable error,
            int exitCode) {
        String line = oneLine(message);
        PrintWriter err = failed.getErr();
        if (json) {
            ObjectNode body = Json.MAPPER.createObjectNode();
            body.putObject("error").put("kind", kind).put("message", line);
            failed.getOut().println(Json.write(body));
        } else {
            err.println(line);
        }
        if (verbose) {
            error.printStackTrace(err);
        }
        err.flush();
        failed.getOut().flush();
        return exitCode;
    }

    /** Scripts read the first line only: a message must never spill onto a second. */
    private static String oneLine(String message) {
        return String.valueOf(message).strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
