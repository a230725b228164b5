package dev.tensorbroadcast.job.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Pairs of options that exclude each other, reported as one usage line naming both. */
final class ExclusiveOptions {
    private ExclusiveOptions() {}

    static void requireAtMostOne(CommandSpec spec, String option, Object value, String otherOption, Object other,
            String hint) {
        if (value != null && other != null) {
            throw new ParameterException(spec.commandLine(), "Cannot use " + option + " with " + otherOption
                    + ": they are mutually exclusive (" + hint + ")");
        }
    }

}
