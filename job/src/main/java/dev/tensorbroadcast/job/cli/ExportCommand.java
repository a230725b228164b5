package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.job.dataset.DatasetDirectory;
import dev.tensorbroadcast.job.dataset.NpyExporter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code export}: a complete, small dataset to one {@code .npy} for numpy users. */
@Command(
        name = "export",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Writes a complete dataset to one .npy file in numpy's own dtype (bfloat16 as its raw uint16 bits).",
            "Refuses incomplete datasets, datasets with null elements, and arrays over 2 GiB unless --force."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast export /tmp/tb/numpy --npy /tmp/tb/numpy.npy",
            "Writes the dataset 'tensor-broadcast expand --help' writes in its example as one [1000,4096] .npy."
        })
final class ExportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<dir>", description = "The dataset directory, a path or any Hadoop URI.")
    String dir;

    @Option(names = "--npy", required = true, paramLabel = "<file>", description = "The local .npy file to write.")
    Path npy;

    @Option(names = "--force", description = "Write arrays larger than 2 GiB too.")
    boolean force;

    @Option(names = "--overwrite", description = "Replace the .npy file if it exists.")
    boolean overwrite;

    @Mixin
    OutputOptions output;

    @Mixin
    HadoopConfOptions hadoop;

    @Override
    public Integer call() throws IOException {
        NpyExporter.Result result;
        try (DatasetDirectory dataset = DatasetDirectory.open(dir, hadoop.configuration(), "export")) {
            long limit = force ? Long.MAX_VALUE : NpyExporter.DEFAULT_MAX_BYTES;
            result = new NpyExporter(dataset, limit).export(npy, overwrite);
        }
        PrintWriter err = spec.commandLine().getErr();
        result.notes().forEach(note -> err.println("note: " + note));
        err.flush();
        output.emit(
                spec.commandLine().getOut(),
                () -> json(result),
                out -> out.println("wrote " + result.file() + ": " + result.descr() + " " + result.shape() + ", "
                        + result.bytes() + " bytes"));
        return ExitCode.OK;
    }

    private static ObjectNode json(NpyExporter.Result result) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("file", result.file().toString());
        json.put("descr", result.descr());
        json.set("shape", Json.array(result.shape()));
        json.put("bytes", result.bytes());
        ArrayNode notes = json.putArray("notes");
        result.notes().forEach(notes::add);
        return json;
    }
}
