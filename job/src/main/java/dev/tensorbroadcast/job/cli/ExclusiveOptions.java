package dev.tensorbroadcast.job.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Pairs of options that exclude each other, and options that do nothing in some use, each reported as one usage line
 * naming them: an option is honoured or refused, never read and dropped.
 */
final class ExclusiveOptions {
    private ExclusiveOptions() {}

    static void requireAtMostOne(
            CommandSpec spec, String option, Object value, String otherOption, Object other, String hint) {
        if (value != null && other != null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "Cannot use " + option + " with " + otherOption + ": they are mutually exclusive (" + hint + ")");
        }
    }

    static boolean given(CommandSpec spec, String option) {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    /**
     * Refuses {@code option} when it was typed where it has no effect: "Cannot use {option} {where}: {why}", where
     * {@code why} says what to do instead.
     */
    static void refuseIfGiven(CommandSpec spec, String option, String where, String why) {
        if (given(spec, option)) {
            throw new ParameterException(spec.commandLine(), "Cannot use " + option + " " + where + ": " + why);
        }
    }
}
