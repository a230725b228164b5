package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/** How a subcommand reports: shared by every subcommand, so scripts use the same flags everywhere. */
final class OutputOptions {
    static final String JSON = "--json";
    static final String VERBOSE = "--verbose";

    @Option(names = JSON, description = "Print one JSON object on stdout, errors included.")
    boolean json;

    @Option(names = VERBOSE, description = "Print the stack trace after an error message.")
    boolean verbose;

    /** Prints a subcommand's result: one JSON object with {@code --json}, else the text form. */
    void emit(PrintWriter out, Supplier<ObjectNode> json, Consumer<PrintWriter> text) {
        if (this.json) {
            out.println(Json.write(json.get()));
        } else {
            text.accept(out);
        }
        out.flush();
    }
}
