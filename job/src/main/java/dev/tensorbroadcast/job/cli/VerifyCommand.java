package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowSourceOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.dataset.DatasetDirectory;
import dev.tensorbroadcast.job.dataset.DatasetVerifier;
import dev.tensorbroadcast.job.dataset.VerifyReport;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestRequests;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.source.LoadedSource;
import dev.tensorbroadcast.job.source.SourceLoader;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code verify}: checks every file of a dataset against its manifest (presence, size, CRC-32C, no extra files) and,
 * with {@code --source}, every value against the planner's reference for the manifest's request.
 */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Checks a dataset's files against its manifest: each exists with its size and CRC-32C, and no extra"
                    + " part-* file exists. With --source, recomputes every value from the source and compares.",
            "Exit code 0: no problem; 1: problems found (each printed on one line); 2: not a dataset, or a source"
                    + " that does not match the manifest."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast verify /tmp/tb/numpy --source examples/row4096.npy",
            "Checks the dataset 'tensor-broadcast expand --help' writes in its example, and every value in it."
        })
final class VerifyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<dir>", description = "The dataset directory, a path or any Hadoop URI.")
    String dir;

    @Option(
            names = "--source",
            paramLabel = "<file|dir>",
            description = "The source the dataset was made from (.npy, Arrow IPC, or a dataset directory, read whole,"
                    + " with the --column and --row-shape the manifest recorded unless given): compare every value.")
    String source;

    @Mixin
    TensorColumnOptions input;

    @Mixin
    OutputOptions output;

    @Mixin
    HadoopConfOptions hadoop;

    @Override
    public Integer call() throws IOException {
        if (source == null) {
            // they say how to read the source, so without one they would be dropped
            for (String option : new String[] {TensorColumnOptions.COLUMN, TensorColumnOptions.ROW_SHAPE}) {
                ExclusiveOptions.refuseIfGiven(
                        spec,
                        option,
                        "without --source",
                        "it says how to read the source;" + " give --source, or drop " + option);
            }
        }
        Configuration conf = hadoop.configuration();
        try (DatasetDirectory dataset = DatasetDirectory.open(dir, conf, "verify")) {
            Optional<SourceTensor> tensor =
                    source == null ? Optional.empty() : Optional.of(readSource(conf, recorded(dataset)));
            VerifyReport report = new DatasetVerifier(dataset).verify(tensor, progress());
            output.emit(spec.commandLine().getOut(), () -> json(report), out -> {
                report.problems().forEach(out::println);
                out.println(summary(report));
            });
            return report.ok() ? ExitCode.OK : ExitCode.DATASET_PROBLEMS;
        }
    }

    /** A line on stderr as values are compared, as {@code expand} shows its job: none with --json or no --source. */
    private Progress progress() {
        if (output.json || source == null) {
            return Progress.NONE;
        }
        PrintWriter err = spec.commandLine().getErr();
        @SuppressWarnings("SystemConsoleNull") // null on Java 17 when a stream is redirected (22+ would need
        // Console.isTerminal())
        boolean interactive = System.console() != null && TensorBroadcastCli.onConsole(err);
        return interactive ? new TerminalProgress(err) : new LineProgress(err);
    }

    /** How the manifest says the source was read (its column and row shape), when it says so. */
    private static Optional<Manifest.ManifestInput> recorded(DatasetDirectory dataset) {
        return dataset.manifest().flatMap(manifest -> {
            try {
                return Optional.of(manifest.inputs().get(ManifestRequests.inputIndex(manifest)));
            } catch (RuntimeException e) {
                // a manifest whose request is damaged: the verifier says what is wrong with it
                return Optional.empty();
            }
        });
    }

    /**
     * The whole source on the heap: a file as it is, a dataset directory (a batch expansion's source) read whole,
     * with the column and row shape given here, else those the manifest recorded.
     */
    private SourceTensor readSource(Configuration conf, Optional<Manifest.ManifestInput> recorded) {
        Optional<String> column = input.column().or(() -> recorded.map(Manifest.ManifestInput::column));
        Optional<Shape> rowShape = input.rowShape()
                .or(() -> recorded.map(Manifest.ManifestInput::rowShape).map(ManifestShapes::shape));
        ArrowSourceOptions arrow =
                column.map(ArrowSourceOptions.defaults()::withColumn).orElse(ArrowSourceOptions.defaults());
        LoadedSource loaded = new SourceLoader(conf, SourceLimits.defaults(), arrow, rowShape).load(source);
        if (loaded.tensor() != null) {
            return loaded.tensor();
        }
        TensorDataset dataset = loaded.dataset();
        return DatasetSlices.read(dataset, new SourceRows(0, dataset.rows()), conf)
                .tensor();
    }

    private ObjectNode json(VerifyReport report) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("dataset", dir);
        json.put("ok", report.ok());
        json.put("files", report.files());
        json.put("bytes", report.bytes());
        report.valuesCompared().ifPresent(values -> json.put("values_compared", values));
        ArrayNode problems = json.putArray("problems");
        report.problems().forEach(problems::add);
        return json;
    }

    private String summary(VerifyReport report) {
        if (!report.ok()) {
            int count = report.problems().size();
            return "FAILED: " + dir + ": " + count + " problem" + (count == 1 ? "" : "s");
        }
        String values = report.valuesCompared().isPresent()
                ? ", " + report.valuesCompared().getAsLong() + " values match the source"
                : "";
        return "OK: " + dir + ": " + report.files() + " file" + (report.files() == 1 ? "" : "s") + ", " + report.bytes()
                + " bytes, checksums match" + values;
    }
}
