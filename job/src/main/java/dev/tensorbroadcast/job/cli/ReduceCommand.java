package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.PreparedReduce;
import dev.tensorbroadcast.job.ReduceResult;
import dev.tensorbroadcast.job.TensorReduce;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.pipeline.ReduceJob;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code reduce}: the adjoint of a broadcast, a gradient summed back to the forward input's shape, with Spark. */
@Command(
        name = "reduce",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Sums a gradient shaped like a broadcast's output back to the input's shape (expand's backward pass).",
            "nGraph's Sum over the broadcast axes, PyTorch's expand backward. The request is the forward broadcast,"
                    + " given as for plan and expand. Writes one .npy file on the driver (an --output ending in .npy)"
                    + " or a dataset directory, as expand writes one."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast expand --input examples/row4096.npy --dialect numpy \\",
            "      --shape 1000,4096 --output /tmp/tb/numpy",
            "  tensor-broadcast reduce --input /tmp/tb/numpy --dialect numpy \\",
            "      --input-shape [1,4096] --shape 1000,4096 --output /tmp/tb/bias-grad.npy",
            "Sums the 1000 rows the broadcast made back into one [1,4096] row: the row times 1000."
        })
final class ReduceCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--input",
            required = true,
            paramLabel = "<file|dir>",
            description = "The gradient, shaped like the forward output: .npy or Arrow IPC, or a dataset directory"
                    + " of Arrow IPC or Parquet files; a local path or a Hadoop URI.")
    String input;

    @Option(
            names = "--input-shape",
            required = true,
            paramLabel = "<shape>",
            description = "The forward input's shape, such as [1,4096]; repeat it for the inputs of a joint"
                    + " broadcast (numpy, pytorch, paddle without --shape).")
    List<String> inputShapes;

    @Option(
            names = "--input-index",
            paramLabel = "<i>",
            description = "Reduce only input i of a joint broadcast; without it every input is reduced, into"
                    + " <output>/0, <output>/1, ...")
    Integer inputIndex;

    @Mixin
    RequestOptions arguments;

    @Mixin
    DatasetInputOptions dataset;

    @Option(
            names = DatasetOutputOptions.OUTPUT,
            required = true,
            paramLabel = "<file.npy|dir>",
            description = "Where the result goes: a path ending in .npy is one .npy file on the driver's local disk;"
                    + " anything else is a dataset directory, a local path or a Hadoop URI (hdfs://, s3a://, file:/).")
    String outputLocation;

    @Option(
            names = DatasetOutputOptions.FORMAT,
            paramLabel = "<format>",
            completionCandidates = FormatHelp.Results.class,
            description = "${COMPLETION-CANDIDATES}; by default npy for an"
                    + " --output ending in .npy, else arrow. Another format with an --output ending in .npy is"
                    + " refused.")
    String format;

    @Option(
            names = DatasetOutputOptions.CHUNKS,
            paramLabel = "<sizes>",
            description = "With --format zarr: the result's chunk shape, one size per dim of the input. Default: a"
                    + " partition's rows by the whole of the other dims.")
    String chunks;

    @Option(
            names = DatasetOutputOptions.SHARD,
            paramLabel = "<sizes>",
            description = "With --format zarr: the shard shape (sharding_indexed), each dim a multiple of --chunks.")
    String shard;

    @Mixin
    WriteOptions write;

    @Option(
            names = "--dry-run",
            description = "Plan and check everything, print the axes summed, the regime and the bytes each task"
                    + " reads; start no Spark and write nothing.")
    boolean dryRun;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        arguments.check(spec);
        write.partitioning.check(spec);
        TensorReduce.Builder builder = TensorReduce.builder()
                .gradient(input)
                .dialect(arguments.dialect())
                .output(outputLocation)
                .write(write.spec().build());
        ArrayChunking chunking = new ArrayChunking(
                chunks == null ? new long[0] : ArrayChunking.parse(chunks, Param.CHUNKS),
                shard == null ? new long[0] : ArrayChunking.parse(shard, Param.SHARD));
        if (format != null) {
            // refuses --chunks and --shard unless the format writes an array
            builder.format(OutputFormat.parseResult(format).withChunking(chunking));
        } else {
            chunking.requireFits(
                    (outputLocation.endsWith(".npy") ? OutputFormat.NPY : OutputFormat.ARROW).formatName(), false);
        }
        inputShapes.forEach(shape -> builder.inputShape(Shape.parse(shape)));
        if (inputIndex != null) {
            builder.inputIndex(inputIndex);
        }
        arguments.target().ifPresent(builder::shape);
        arguments.mode().ifPresent(builder::mode);
        arguments.axesMapping().ifPresent(builder::axesMapping);
        arguments.broadcastAxes().ifPresent(builder::broadcastAxes);
        arguments.axis().ifPresent(builder::axis);
        dataset.rowShape().ifPresent(builder::rowShape);
        builder.shipThreshold(dataset.shipThreshold());
        dataset.column().ifPresent(builder::column);
        write.partitioning.bytes().ifPresent(builder::partitionBytes);
        write.partitioning.count().ifPresent(builder::partitions);
        TensorReduce reduce = builder.build();
        Configuration hadoop = HadoopSettings.configuration(write.conf);
        PreparedReduce prepared = reduce.prepare(hadoop);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (dryRun) {
            output.emit(out, () -> planJson(prepared, reduce), text -> printPlan(text, prepared, reduce));
            return ExitCode.OK;
        }
        long start = System.nanoTime();
        List<ReduceResult> results;
        try (EngineChoice.Chosen engine =
                EngineChoice.obtain(write.master, write.conf, job(prepared), hadoop, output, err)) {
            Interruption.stopIfSignalled();
            // said once the output is ours: a second writer's refusal is its only line
            results = prepared.run(engine.engine(), Progress.NONE, () -> announce(err, prepared, reduce));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        output.emit(out, () -> resultJson(results, seconds), text -> {
            for (ReduceResult result : results) {
                text.println(String.format(
                        Locale.ROOT,
                        "wrote %s: %s %s (%s) from %s (%s), in %.1f s",
                        result.location(),
                        result.shape().toList(),
                        result.dtype().typeName(),
                        ByteSize.format(result.bytes()),
                        tasks(result.tasks()),
                        result.regime(),
                        seconds));
            }
        });
        return ExitCode.OK;
    }

    /** What decides whether the reduce runs in the driver: the gradient's bytes, the tasks, where it writes. */
    private static EngineChoice.Job job(PreparedReduce prepared) {
        long tasks = 0;
        long bytes = 0;
        boolean local = true;
        for (int i = 0; i < prepared.reduces().size(); i++) {
            ReducePlan reducePlan = prepared.reduces().get(i);
            tasks += prepared.tasks(reducePlan);
            bytes += Math.max(reducePlan.output().elements(), reducePlan.input().elements())
                    * reducePlan.dtype().byteWidth();
            local &= EngineChoice.local(prepared.location(i));
        }
        return new EngineChoice.Job(bytes, tasks, local);
    }

    /** What will be written, said once Spark runs and the output is this job's. */
    private void announce(PrintWriter err, PreparedReduce prepared, TensorReduce reduce) {
        if (!output.json) {
            for (int i = 0; i < prepared.reduces().size(); i++) {
                ReducePlan plan = prepared.reduces().get(i);
                err.println(String.format(
                        Locale.ROOT,
                        "reducing %s %s to %s (%s) in %s into %s %s",
                        plan.output().toList(),
                        plan.dtype().typeName(),
                        plan.input().toList(),
                        plan.regime(),
                        tasks(prepared.tasks(plan)),
                        reduce.formatName(),
                        prepared.location(i)));
            }
            err.flush();
        }
    }

    private static void printPlan(PrintWriter text, PreparedReduce prepared, TensorReduce reduce) {
        text.println("gradient: " + prepared.gradientShape().toList() + " (" + prepared.gradientStrategy() + ")");
        for (int i = 0; i < prepared.reduces().size(); i++) {
            ReducePlan plan = prepared.reduces().get(i);
            long tasks = prepared.tasks(plan);
            text.println(String.format(
                    Locale.ROOT,
                    "input %d: %s %s, summing axes %s of the gradient (%s" + " of each element)",
                    plan.inputIndex(),
                    plan.input().toList(),
                    plan.dtype().typeName(),
                    Arrays.toString(plan.summedAxes()),
                    Plural.of(plan.copies(), "copy", "copies")));
            String combine = plan.regime() == ReducePlan.Regime.ROWS_SUMMED
                    ? "partials merged in a tree of depth " + ReduceJob.depth(tasks) + ", " + ReduceJob.FANOUT
                            + " per merge"
                    : "each task writes its rows of the result";
            text.println(String.format(
                    Locale.ROOT,
                    "  %s: %s, each reading at most %s of the gradient; %s",
                    plan.regime(),
                    tasks(tasks),
                    ByteSize.format(prepared.bytesPerTask(plan)),
                    combine));
            text.println("  output: " + reduce.formatName() + " " + prepared.location(i));
        }
    }

    private static String tasks(long count) {
        return Plural.of(count, "task");
    }

    private static ObjectNode planJson(PreparedReduce prepared, TensorReduce reduce) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        ArrayNode gradient = json.putArray("gradient_shape");
        for (long dim : prepared.gradientShape().dims()) {
            gradient.add(dim);
        }
        json.put("gradient_strategy", prepared.gradientStrategy());
        ArrayNode results = json.putArray("results");
        for (int i = 0; i < prepared.reduces().size(); i++) {
            ReducePlan plan = prepared.reduces().get(i);
            ObjectNode entry = results.addObject();
            entry.put("input", plan.inputIndex());
            ArrayNode shape = entry.putArray("shape");
            for (long dim : plan.input().dims()) {
                shape.add(dim);
            }
            entry.put("dtype", plan.dtype().typeName());
            ArrayNode axes = entry.putArray("summed_axes");
            Arrays.stream(plan.summedAxes()).forEach(axes::add);
            entry.put("regime", plan.regime().toString());
            entry.put("tasks", prepared.tasks(plan));
            entry.put("bytes_per_task", prepared.bytesPerTask(plan));
            entry.put("format", reduce.formatName());
            entry.put("output", prepared.location(i));
        }
        return json;
    }

    private static ObjectNode resultJson(List<ReduceResult> results, double seconds) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("seconds", Math.round(seconds * 1000) / 1000.0);
        ArrayNode list = json.putArray("results");
        for (ReduceResult result : results) {
            ObjectNode entry = list.addObject();
            entry.put("output", result.location());
            entry.put("input", result.input());
            ArrayNode shape = entry.putArray("shape");
            for (long dim : result.shape().dims()) {
                shape.add(dim);
            }
            entry.put("dtype", result.dtype().typeName());
            entry.put("regime", result.regime().toString());
            entry.put("format", result.format());
            entry.put("tasks", result.tasks());
            entry.put("bytes", result.bytes());
        }
        return json;
    }
}
