package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.KeepColumns;
import dev.tensorbroadcast.job.TensorBroadcast;
import picocli.CommandLine.Option;

/** Which of a dataset input's other columns the output keeps: shared by the subcommands that write expanded rows. */
final class KeepOptions {
    static final String KEEP = "--keep";

    @Option(
            names = KEEP,
            paramLabel = "<columns>",
            defaultValue = "all",
            description = "The columns of a dataset input, other than the tensor, written next to each expanded row"
                    + " with their own names and types: all (the default), none, or names such as user_id,label."
                    + " Kept when the output's rows follow the input's rows ([N,1,64] -> [N,8,64]).")
    String keep;

    KeepColumns columns() {
        return KeepColumns.parse(keep);
    }

    TensorBroadcast.Builder configure(TensorBroadcast.Builder builder) {
        return builder.keep(columns());
    }
}
