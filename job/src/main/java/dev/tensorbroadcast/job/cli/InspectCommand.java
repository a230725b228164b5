package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.dataset.DatasetDirectory;
import dev.tensorbroadcast.job.dataset.ForeignFiles;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.planner.Param;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code inspect}: what a dataset holds, from its manifest, and whether it is complete. Reads the manifest and lists
 * the directory; reads no data.
 */
@Command(
        name = "inspect",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Summarizes a dataset from its manifest and says whether it is complete.",
            "Exit code 0: complete, or Arrow IPC or Parquet files another tool wrote ('not ours', readable as"
                    + " --input); 1: incomplete (no _SUCCESS, no manifest, or a listed file missing or of another"
                    + " size); 2: not a dataset."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast inspect /tmp/tb/numpy",
            "Summarizes the dataset 'tensor-broadcast expand --help' writes in its example."
        })
final class InspectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<dir>", description = "The dataset directory, a path or any Hadoop URI.")
    String dir;

    @Mixin
    OutputOptions output;

    @Mixin
    HadoopConfOptions hadoop;

    @Override
    public Integer call() throws IOException {
        Configuration conf = hadoop.configuration();
        Optional<ForeignFiles> foreign = ForeignFiles.find(dir, conf);
        if (foreign.isPresent()) {
            // another tool's files are what they are, not an incomplete dataset of ours
            output.emit(
                    spec.commandLine().getOut(),
                    () -> foreignJson(foreign.get()),
                    out -> out.println("not ours: " + foreign.get().describe() + ", readable as --input (" + dir
                            + " has no " + Manifest.FILE_NAME + ": another tool wrote it)"));
            return ExitCode.OK;
        }
        try (DatasetDirectory dataset = DatasetDirectory.open(dir, conf, "inspect")) {
            // the reasons name parameters for any reader: here, as flags
            List<String> incomplete = dataset.incompleteness().stream()
                    .map(Param::commandLineText)
                    .toList();
            output.emit(
                    spec.commandLine().getOut(),
                    () -> json(dataset, incomplete),
                    out -> printText(out, dataset, incomplete));
            return incomplete.isEmpty() ? ExitCode.OK : ExitCode.DATASET_PROBLEMS;
        }
    }

    private ObjectNode foreignJson(ForeignFiles foreign) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("dataset", dir);
        json.put("ours", false);
        // one count per dataset format the registry knows: arrow_files, parquet_files, ...
        TensorFileFormats.datasetFormats()
                .forEach(format -> json.put(format.name() + "_files", foreign.count(format.name())));
        return json;
    }

    private static ObjectNode json(DatasetDirectory dataset, List<String> incomplete) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("dataset", dataset.name());
        json.put("ours", true);
        json.put("complete", incomplete.isEmpty());
        ArrayNode reasons = json.putArray("incomplete");
        incomplete.forEach(reasons::add);
        dataset.manifest().ifPresent(manifest -> {
            json.set("shape", Json.array(ManifestShapes.shape(manifest.shape())));
            json.put("dtype", manifest.dtype());
            json.put("elements", manifest.elements());
            json.put("rows", manifest.rows());
            json.set("row_shape", Json.array(ManifestShapes.shape(manifest.rowShape())));
            json.put("format", manifest.format());
            json.put("compression", manifest.compression());
            json.put("row_layout", manifest.rowLayout());
            json.put("partitions", manifest.partitions());
            json.put("files", manifest.files().size());
            json.put("bytes", manifest.totalFileBytes());
            ObjectNode request = json.putObject("request");
            manifest.request().entrySet().stream()
                    .sorted(Map.Entry.comparingByKey())
                    .forEach(entry -> request.put(entry.getKey(), entry.getValue()));
            ArrayNode inputs = json.putArray("inputs");
            for (Manifest.ManifestInput input : manifest.inputs()) {
                inputs.addObject()
                        .put("path", input.path())
                        .put("dtype", input.dtype())
                        .set("shape", Json.array(ManifestShapes.shape(input.shape())));
            }
            json.put("tool_version", manifest.toolVersion());
            json.put("created", manifest.created());
        });
        ArrayNode stray = json.putArray("stray");
        dataset.strayEntries()
                .forEach((name, size) -> stray.addObject().put("path", name).put("bytes", size));
        return json;
    }

    private static void printText(PrintWriter out, DatasetDirectory dataset, List<String> incomplete) {
        line(out, "dataset", dataset.name());
        line(out, "complete", incomplete.isEmpty() ? "yes" : "no: " + String.join("; ", incomplete));
        dataset.manifest().ifPresent(manifest -> {
            line(out, "shape", ManifestShapes.shape(manifest.shape()).toString());
            line(out, "dtype", manifest.dtype());
            line(out, "rows", manifest.rows() + " x " + ManifestShapes.shape(manifest.rowShape()));
            line(
                    out,
                    "format",
                    manifest.format() + ", compression " + manifest.compression()
                            + (manifest.rowLayout().equals(Manifest.NESTED_ROWS) ? ", nested rows" : ""));
            line(out, "partitions", Long.toString(manifest.partitions()));
            long bytes = manifest.totalFileBytes();
            line(out, "files", manifest.files().size() + ", " + ByteSize.format(bytes) + " (" + bytes + " bytes)");
            line(
                    out,
                    "request",
                    manifest.request().entrySet().stream()
                            .sorted(Map.Entry.comparingByKey())
                            .map(entry -> entry.getKey() + "=" + entry.getValue())
                            .collect(Collectors.joining(" ")));
            for (Manifest.ManifestInput input : manifest.inputs()) {
                line(out, "input", input.path() + " " + input.dtype() + " " + ManifestShapes.shape(input.shape()));
            }
            if (!manifest.keptColumns().isEmpty()) {
                line(
                        out,
                        "kept columns",
                        manifest.keptColumns().stream()
                                .map(column -> column.name() + " " + column.type())
                                .collect(Collectors.joining(", ")));
            }
            line(out, "tool version", manifest.toolVersion());
            line(out, "created", manifest.created());
        });
        dataset.strayEntries()
                .forEach((name, size) ->
                        line(out, "stray", size < 0 ? name + "/" : name + " (" + ByteSize.format(size) + ")"));
    }

    private static void line(PrintWriter out, String label, String value) {
        out.println(String.format(Locale.ROOT, "%-13s %s", label, value));
    }
}
