package dev.tensorbroadcast.job.cli;

import picocli.CommandLine.Option;

/** How a subcommand reports: shared by every subcommand, so scripts use the same flags everywhere. */
final class OutputOptions {
    static final String JSON = "--json";
    static final String VERBOSE = "--verbose";

    @Option(names = JSON, description = "Print one JSON object on stdout, errors included.")
    boolean json;

    @Option(names = VERBOSE, description = "Print the stack trace after an error message.")
    boolean verbose;
}
