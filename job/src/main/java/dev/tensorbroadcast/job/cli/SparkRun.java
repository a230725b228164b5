package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.KeepColumns;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.PreparedBroadcast;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.base.DiscardedBroadcast;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * What {@code expand} and {@code broadcast-tensors} share, from their options to the result: the options' checks
 * ({@link #of}), then in one call ({@link #run}) the request built and prepared (every check before Spark starts),
 * the engine chosen, the line saying what will be written, the job, and the result as text or JSON.
 */
final class SparkRun {
    private final DatasetOutputOptions destination;
    private final WriteOptions write;
    private final OutputOptions output;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean interactive;

    private SparkRun(
            DatasetOutputOptions destination,
            WriteOptions write,
            OutputOptions output,
            PrintWriter out,
            PrintWriter err,
            boolean interactive) {
        this.destination = destination;
        this.write = write;
        this.output = output;
        this.out = out;
        this.err = err;
        this.interactive = interactive;
    }

    /** The run of a command's options, checked: the partitioning, and the output against the format. */
    static SparkRun of(CommandSpec spec, DatasetOutputOptions target, WriteOptions write, OutputOptions output) {
        write.partitioning.check(spec);
        checkOutput(spec, target, write);
        // a progress line only makes sense on a terminal: System.console() is null when a stream is redirected
        @SuppressWarnings("SystemConsoleNull") // null on Java 17 when a stream is redirected (22+ would need
        // Console.isTerminal())
        boolean interactive = System.console() != null
                && TensorBroadcastCli.onConsole(spec.commandLine().getErr());
        return new SparkRun(
                target,
                write,
                output,
                spec.commandLine().getOut(),
                spec.commandLine().getErr(),
                interactive);
    }

    /** The null sink writes nothing, so it takes no option about files; every file format needs an output. */
    private static void checkOutput(CommandSpec spec, DatasetOutputOptions target, WriteOptions write) {
        if (target.discards()) {
            if (target.output != null) {
                throw new ParameterException(
                        spec.commandLine(),
                        "Cannot use --output with --format null: the null"
                                + " sink writes no files; drop --output, or give --format arrow or parquet");
            }
            if (!"none".equals(write.compression)) {
                throw new ParameterException(
                        spec.commandLine(),
                        "Cannot use --compression " + write.compression
                                + " with --format null: the null sink writes no files; drop --compression");
            }
            if (write.rowLayout() != RowLayout.FLAT) {
                throw new ParameterException(
                        spec.commandLine(),
                        "Cannot use --row-layout " + write.rowLayout
                                + " with --format null: the null sink writes no files; drop --row-layout");
            }
            if (write.overwrite) {
                throw new ParameterException(
                        spec.commandLine(),
                        "Cannot use --overwrite with --format null: the"
                                + " null sink writes no files; drop --overwrite");
            }
            for (String option : new String[] {
                WriteOptions.ENCODING,
                WriteOptions.ROW_GROUP_SIZE,
                WriteOptions.MAX_OUTPUT,
                WriteOptions.IGNORE_FREE_SPACE
            }) {
                ExclusiveOptions.refuseIfGiven(
                        spec, option, "with --format null", "the null sink writes no files;" + " drop " + option);
            }
            ExclusiveOptions.refuseIfGiven(
                    spec,
                    KeepOptions.KEEP,
                    "with --format null",
                    "the null sink computes" + " the tensor alone and reads no other column; drop " + KeepOptions.KEEP);
        } else if (target.output == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--output=<dir>'");
        }
    }

    /** Applies the shared options to a request that has its sources and dialect arguments. */
    private TensorBroadcast.Builder configure(TensorBroadcast.Builder builder) {
        if (!destination.discards()) {
            OutputFormat format = OutputFormat.parse(destination.format).withChunking(destination.chunking());
            builder.output(destination.output).write(write.spec().format(format).build());
        } else {
            // the null sink measures the tensor alone: other columns are neither read nor written
            builder.keep(KeepColumns.none());
            destination.chunking().requireFits(destination.format, false);
        }
        write.partitioning.bytes().ifPresent(builder::partitionBytes);
        write.partitioning.count().ifPresent(builder::partitions);
        return builder;
    }

    /**
     * The whole run, in one call: the shared options added to {@code request} (which has its sources and dialect
     * arguments), the request built and prepared (every check before Spark), the engine chosen, the job run and its
     * result told; {@code perInput} writes input {@code i} into {@code output/i}.
     */
    int run(TensorBroadcast.Builder request, boolean perInput) {
        TensorBroadcast broadcast = configure(request).build();
        Configuration hadoop = HadoopSettings.configuration(write.conf);
        PreparedBroadcast prepared = broadcast.prepare(hadoop);
        EngineChoice.Job job = new EngineChoice.Job(
                prepared.outputBytes(),
                partitionCount(prepared),
                EngineChoice.local(prepared.outputPath().map(Path::toString).orElse(null)));
        if (destination.discards()) {
            return discard(prepared, job, hadoop);
        }
        Path target = prepared.outputPath().orElseThrow();
        long start = System.nanoTime();
        List<Manifest> manifests;
        Progress progress = progress();
        long jobStart;
        try (EngineChoice.Chosen engine = EngineChoice.obtain(write.master, write.conf, job, hadoop, output, err)) {
            Interruption.stopIfSignalled();
            jobStart = System.nanoTime();
            // said once Spark runs and the output is this job's (its lock taken), so that neither a master that
            // cannot be reached nor another job writing the output is preceded by a promise to write
            Runnable announce = () -> {
                if (!output.json) {
                    err.println(announcement(prepared, target, perInput));
                    err.flush();
                }
            };
            manifests = perInput
                    ? prepared.runAll(engine.engine(), progress, announce)
                    : List.of(prepared.run(engine.engine(), progress, announce));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double jobSeconds = (System.nanoTime() - jobStart) / 1e9;
        output.emit(out, () -> json(manifests, target, perInput, seconds, jobSeconds), text -> {
            for (int i = 0; i < manifests.size(); i++) {
                Path directory = perInput ? new Path(target, Integer.toString(i)) : target;
                text.println(summary(manifests.get(i), directory, seconds));
            }
        });
        if (!output.json) {
            // after the result: how to read it, on stderr beside the other lines for a person
            out.flush();
            for (int i = 0; i < manifests.size(); i++) {
                Path directory = perInput ? new Path(target, Integer.toString(i)) : target;
                ReadHint.of(manifests.get(i), directory).ifPresent(err::println);
                ReadHint.huggingFace(manifests.get(i), hadoop).ifPresent(err::println);
            }
            err.flush();
        }
        return ExitCode.OK;
    }

    /** The tasks of every input's job. */
    private static long partitionCount(PreparedBroadcast prepared) {
        long tasks = 0;
        for (int i = 0; i < prepared.inputCount(); i++) {
            tasks += prepared.partitions(i).partitionCount();
        }
        return tasks;
    }

    /** A live line on a terminal, a line every ten seconds elsewhere, nothing with --json (stdout is the result). */
    private Progress progress() {
        if (output.json) {
            return Progress.NONE;
        }
        return interactive ? new TerminalProgress(err) : new LineProgress(err);
    }

    /** The null sink: every input computed and discarded; reports what was computed and its checksums. */
    private int discard(PreparedBroadcast prepared, EngineChoice.Job job, Configuration hadoop) {
        if (!output.json) {
            err.println(String.format(
                    Locale.ROOT,
                    "computing %s %s (%s) in %s and discarding it",
                    prepared.plan().output().toList(),
                    prepared.inputDtype(0).typeName(),
                    ByteSize.format(prepared.outputBytes()),
                    Plural.of(prepared.partitions(0).partitionCount(), "partition")));
            err.flush();
        }
        long start = System.nanoTime();
        List<DiscardedBroadcast> results = new ArrayList<>();
        Progress progress = progress();
        long jobStart;
        try (EngineChoice.Chosen engine = EngineChoice.obtain(write.master, write.conf, job, hadoop, output, err)) {
            Interruption.stopIfSignalled();
            jobStart = System.nanoTime();
            for (int i = 0; i < prepared.inputCount(); i++) {
                results.add(prepared.discard(engine.engine(), progress, i));
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double jobSeconds = (System.nanoTime() - jobStart) / 1e9;
        output.emit(out, () -> DiscardJson.of(results, seconds, jobSeconds), text -> {
            for (DiscardedBroadcast result : results) {
                text.println(String.format(
                        Locale.ROOT,
                        "computed and discarded %s %s: %s, %s of values in %s, in %.1f s (%s/s)",
                        ManifestShapes.shape(result.shape()).toList(),
                        result.dtype(),
                        Plural.of(result.rows(), "row"),
                        ByteSize.format(result.filledBytes()),
                        Plural.of(result.partitions().size(), "partition"),
                        seconds,
                        ByteSize.format(seconds > 0 ? (long) (result.filledBytes() / seconds) : result.filledBytes())));
            }
        });
        return ExitCode.OK;
    }

    private String announcement(PreparedBroadcast prepared, Path target, boolean perInput) {
        PartitionPlan partitions = prepared.partitions(0);
        String datasets = perInput ? prepared.inputCount() + " datasets of " : "";
        if (OutputFormat.parse(destination.format).array().isPresent()) {
            // an array is not one file per partition: each task writes its chunk (or shard) objects
            return String.format(
                    Locale.ROOT,
                    "writing %s%s %s (%s) as %s %s array%s in %s to %s",
                    datasets,
                    prepared.plan().output().toList(),
                    prepared.inputDtype(0).typeName(),
                    ByteSize.format(prepared.outputBytes()),
                    perInput ? "one" : "a",
                    destination.format,
                    perInput ? " each" : "",
                    Plural.of(partitions.partitionCount(), "task"),
                    target);
        }
        return String.format(
                Locale.ROOT,
                "writing %s%s %s (%s) in %d %s file%s%s to %s",
                datasets,
                prepared.plan().output().toList(),
                prepared.inputDtype(0).typeName(),
                ByteSize.format(prepared.outputBytes()),
                partitions.partitionCount(),
                destination.format,
                partitions.partitionCount() == 1 ? "" : "s",
                perInput ? " each" : "",
                target);
    }

    /**
     * The files' size on disk and the bytes of values they hold, each labelled: a compressed file of repeated values
     * is small, and a tiny output's file is mostly schema. The rate counts values, as the progress line does.
     */
    private static String summary(Manifest manifest, Path directory, double seconds) {
        long tensorBytes = manifest.bytes();
        boolean compressed = !manifest.compression().equals("none");
        return String.format(
                Locale.ROOT,
                "wrote %s: %d row%s of %s %s in %d %s file%s: %s on disk%s, %s of values,"
                        + " in %.1f s (%s/s of values)",
                directory,
                manifest.rows(),
                manifest.rows() == 1 ? "" : "s",
                ManifestShapes.shape(manifest.rowShape()).toList(),
                manifest.dtype(),
                manifest.files().size(),
                manifest.format(),
                manifest.files().size() == 1 ? "" : "s",
                ByteSize.format(manifest.totalFileBytes()),
                compressed ? " (" + manifest.compression() + ")" : "",
                ByteSize.format(tensorBytes),
                seconds,
                ByteSize.format(seconds > 0 ? (long) (tensorBytes / seconds) : tensorBytes));
    }

    /** {@code seconds} counts from before Spark starts, {@code job_seconds} from when its session is ready. */
    private static ObjectNode json(
            List<Manifest> manifests, Path target, boolean perInput, double seconds, double jobSeconds) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("output", target.toString());
        json.put("seconds", Math.round(seconds * 1000) / 1000.0);
        json.put("job_seconds", Math.round(jobSeconds * 1000) / 1000.0);
        if (perInput) {
            ArrayNode datasets = json.putArray("datasets");
            for (int i = 0; i < manifests.size(); i++) {
                datasets.add(dataset(manifests.get(i), new Path(target, Integer.toString(i))));
            }
        } else {
            json.setAll(dataset(manifests.get(0), target));
        }
        return json;
    }

    private static ObjectNode dataset(Manifest manifest, Path directory) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("output", directory.toString());
        ArrayNode shape = json.putArray("shape");
        manifest.shape().forEach(shape::add);
        json.put("dtype", manifest.dtype());
        json.put("rows", manifest.rows());
        json.put("format", manifest.format());
        json.put("compression", manifest.compression());
        json.put("row_layout", manifest.rowLayout());
        json.put("files", manifest.files().size());
        json.put("bytes", manifest.totalFileBytes());
        return json;
    }
}
