package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowSourceOptions;
import dev.tensorbroadcast.arrowio.reduce.ReduceKernel;
import dev.tensorbroadcast.job.base.LocalFiles;
import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.commit.DatasetIndex;
import dev.tensorbroadcast.job.commit.OutputDirectory;
import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.commit.OutputOverlap;
import dev.tensorbroadcast.job.dataset.NpyExporter;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestRequests;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.pipeline.DatasetJob;
import dev.tensorbroadcast.job.pipeline.JobEngine;
import dev.tensorbroadcast.job.pipeline.ReduceJob;
import dev.tensorbroadcast.job.sink.NpyWriter;
import dev.tensorbroadcast.job.source.Gradient;
import dev.tensorbroadcast.job.source.JobSource;
import dev.tensorbroadcast.job.source.SourceLoader;
import dev.tensorbroadcast.job.store.Locations;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.IncompatibleShapesException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.ReducePlan;
import dev.tensorbroadcast.planner.Shape;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * A reduce that passed every check that needs no Spark: the gradient is read (a file) or opened (a dataset), the
 * forward request planned, the gradient's shape checked against the plan's output, the output allowed. Running it is
 * the first thing that writes.
 */
public final class PreparedReduce {
    private static final int NPY_BUFFER_BYTES = 1 << 20;

    private final TensorReduce reduce;
    private final Gradient gradient;
    private final BroadcastPlan plan;
    private final List<ReducePlan> reduces;
    private final Path npyTarget;
    private final OutputDirectory directory;
    /** The gradient as the manifest names it (see {@link InputNames}); null for a .npy result, which has none. */
    private final String gradientName;

    private PreparedReduce(
            TensorReduce reduce,
            Gradient gradient,
            BroadcastPlan plan,
            List<ReducePlan> reduces,
            Path npyTarget,
            OutputDirectory directory,
            String gradientName) {
        this.reduce = reduce;
        this.gradientName = gradientName;
        this.gradient = gradient;
        this.plan = plan;
        this.reduces = List.copyOf(reduces);
        this.npyTarget = npyTarget;
        this.directory = directory;
    }

    /** The gradient at the reduce's location; a dataset of ours in the shape its manifest records. */
    private static Gradient gradientOf(TensorReduce reduce, ArrowSourceOptions arrow, Configuration conf) {
        String location = reduce.gradientLocation().orElseThrow();
        Gradient gradient = new SourceLoader(conf, SourceLimits.defaults(), arrow, reduce.rowShape())
                .gradient(location, reduce.shipThreshold());
        return reduce.rowShape().isPresent() ? gradient : GradientShape.of(gradient, location, conf);
    }

    static PreparedReduce prepare(TensorReduce reduce, Configuration conf) {
        ArrowSourceOptions arrow =
                reduce.column().map(ArrowSourceOptions.defaults()::withColumn).orElse(ArrowSourceOptions.defaults());
        Gradient gradient = reduce.gradientTensor()
                .<Gradient>map(Gradient.InMemory::new)
                .orElseGet(() -> gradientOf(reduce, arrow, conf));
        BroadcastRequest.Builder request = reduce.arguments().request();
        for (Shape input : reduce.inputShapes()) {
            request.input(input, gradient.dtype());
        }
        BroadcastPlan plan = request.build().plan();
        gradient = GradientShape.fitting(gradient, plan.output());
        if (!gradient.shape().equals(plan.output())) {
            throw new IncompatibleShapesException("Cannot reduce a gradient of shape " + gradient.shape() + " ["
                    + reduce.dialect() + "]: the forward broadcast of " + inputs(plan) + " gives " + plan.output()
                    + ", and the gradient must have that shape");
        }
        // a bool or string gradient is refused here, before Spark starts
        ReduceKernel.create(gradient.dtype(), 0);
        List<ReducePlan> reduces = new ArrayList<>();
        OptionalInt index = reduce.inputIndex();
        if (index.isPresent()) {
            reduces.add(ReducePlan.of(plan, index.getAsInt()));
        } else {
            for (int i = 0; i < plan.inputs().size(); i++) {
                reduces.add(ReducePlan.of(plan, i));
            }
        }
        for (ReducePlan reducePlan : reduces) {
            TaskCountGuard.check(
                    taskCount(reduce, reducePlan),
                    reducePlan.output().elements() * reducePlan.dtype().byteWidth());
        }
        reduce.files().requireEncodingFits(gradient.dtype());
        reduce.gradientLocation().ifPresent(location -> {
            if (reduce.write().npy()) {
                npyPath(reduce.output())
                        .ifPresent(npy -> OutputOverlap.requireApart(reduce.output(), npy, List.of(location), conf));
            } else {
                OutputOverlap.requireApart(reduce.output(), List.of(location), conf);
            }
        });
        if (reduce.write().npy()) {
            if (reduces.size() > 1) {
                throw new OutputException("Cannot write " + reduces.size() + " results to one .npy: give "
                        + Param.INPUT_INDEX.named() + " to reduce one input, or a dataset directory ("
                        + Param.FORMAT.given("OutputFormat.ARROW or PARQUET", "arrow or parquet")
                        + "), which gets one result per input");
            }
            Path npy = checkNpy(reduce.output(), reduce.write().overwrite());
            requireRoom(
                    reduce,
                    reduces,
                    npy.toString(),
                    false,
                    reduce.write().checkFreeSpace() ? usableBytes(npy) : OptionalLong.empty());
            return new PreparedReduce(reduce, gradient, plan, reduces, npy, null, null);
        }
        for (ReducePlan reducePlan : reduces) {
            // an array result: its dtype, codec and chunks checked before Spark starts
            reduce.files()
                    .partitions(
                            PartitionPlan.builder(reducePlan.input(), reducePlan.dtype())
                                    .build(),
                            reducePlan.dtype());
        }
        OutputDirectory directory =
                OutputDirectory.check(reduce.output(), reduce.write().overwrite(), conf);
        requireRoom(
                reduce,
                reduces,
                directory.path().toString(),
                true,
                reduce.write().checkFreeSpace() ? directory.usableBytes() : OptionalLong.empty());
        return new PreparedReduce(
                reduce,
                gradient,
                plan,
                reduces,
                null,
                directory,
                InputNames.qualified(reduce.gradientLocation().orElse(null), conf));
    }

    /**
     * {@code --max-output} and the free space, for the results' values and their files: a dataset's hold an 8-byte
     * index per row, a {@code .npy} its header.
     */
    private static void requireRoom(
            TensorReduce reduce, List<ReducePlan> reduces, String target, boolean dataset, OptionalLong usable) {
        long bytes = 0;
        long fileBytes = 0;
        for (ReducePlan reducePlan : reduces) {
            long values = reducePlan.input().elements() * reducePlan.dtype().byteWidth();
            long rows = reducePlan.input().rank() == 0 ? 1 : reducePlan.input().dim(0);
            bytes = OutputRoom.saturatedAdd(bytes, values);
            long overhead = dataset
                    ? 8 * rows
                    : NpyWriter.header(NpyExporter.descr(reducePlan.dtype()), reducePlan.input()).length;
            fileBytes = OutputRoom.saturatedAdd(fileBytes, OutputRoom.saturatedAdd(values, overhead));
        }
        OutputRoom.require(bytes, fileBytes, target, reduce.write().maxOutputBytes(), usable);
    }

    /**
     * The usable bytes of the file system a {@code .npy} goes to. A file it replaces frees nothing: the new one is
     * written beside it and renamed over it only when complete.
     */
    private static OptionalLong usableBytes(Path npy) {
        try {
            return OptionalLong.of(Files.getFileStore(npy.getParent()).getUsableSpace());
        } catch (IOException e) {
            throw new OutputException(
                    "Cannot write .npy to '" + npy + "': cannot tell its free space: " + LocalFiles.reason(e));
        }
    }

    private static String inputs(BroadcastPlan plan) {
        return String.join(
                " and ",
                plan.inputs().stream().map(input -> input.input().toString()).toList());
    }

    /**
     * Where a {@code .npy} output is, as a location the overlap check compares: it is always on the driver's local
     * disk, whatever the default file system (a URI is refused later, by {@link #checkNpy}).
     */
    private static java.util.Optional<org.apache.hadoop.fs.Path> npyPath(String location) {
        return Locations.onThisDisk(location)
                .map(local -> new org.apache.hadoop.fs.Path(
                        "file:" + Paths.get(local).toAbsolutePath().normalize()));
    }

    /** A {@code .npy} is written on the driver's local disk, next to nothing of anyone else's. */
    private static Path checkNpy(String location, boolean overwrite) {
        String local = Locations.onThisDisk(location)
                .orElseThrow(() ->
                        new OutputException("Cannot write .npy to '" + location + "': a .npy is written on the driver's"
                                + " local disk; give a local path, or a dataset directory with "
                                + Param.FORMAT.given("OutputFormat.ARROW or PARQUET", "arrow or parquet")));
        Path target = Paths.get(local).toAbsolutePath();
        if (Files.isDirectory(target)) {
            throw new OutputException("Cannot write .npy to '" + location + "': it is a directory; give the path of"
                    + " a .npy file, or " + Param.FORMAT.given("OutputFormat.ARROW or PARQUET", "arrow or parquet")
                    + " to write a dataset into it");
        }
        if (Files.exists(target) && !overwrite) {
            throw new OutputException("Cannot write .npy to '" + location + "': the file exists; choose a new path,"
                    + " or pass " + Param.OVERWRITE.given("true", null) + " to replace it");
        }
        if (!Files.isDirectory(target.getParent())) {
            throw new OutputException(
                    "Cannot write .npy to '" + location + "': directory " + target.getParent() + " does not exist");
        }
        return target;
    }

    /** The forward plan whose gradient this reduces. */
    public BroadcastPlan plan() {
        return plan;
    }

    /** One reduction per input written: its output shape, regime and reverse copy program. */
    public List<ReducePlan> reduces() {
        return reduces;
    }

    /** The gradient's shape: the forward output's. */
    public Shape gradientShape() {
        return gradient.shape();
    }

    /** How the tasks get the gradient: see {@link Gradient#strategy}. */
    public String gradientStrategy() {
        return gradient.strategy();
    }

    /** The tasks that read the gradient for {@code reduce}. */
    public long tasks(ReducePlan reduce) {
        return taskCount(this.reduce, reduce);
    }

    private static long taskCount(TensorReduce request, ReducePlan reducePlan) {
        return ReduceJob.taskCount(
                reducePlan,
                request.partitioning().bytesOrDefault(),
                request.partitioning().count().orElse(0));
    }

    /** Gradient bytes each task reads, at most. */
    public long bytesPerTask(ReducePlan reduce) {
        long rows = reduce.output().rank() == 0 ? 1 : reduce.output().dim(0);
        long tasks = tasks(reduce);
        long rowsPerTask = rows == 0 ? 0 : (rows + tasks - 1) / tasks;
        return rowsPerTask * reduce.outputRowElements() * reduce.dtype().byteWidth();
    }

    /** Where result {@code i} of {@link #reduces} goes. */
    public String location(int i) {
        if (npyTarget != null) {
            return npyTarget.toString();
        }
        return reduces.size() == 1
                ? directory.path().toString()
                : new org.apache.hadoop.fs.Path(
                                directory.path(),
                                Integer.toString(reduces.get(i).inputIndex()))
                        .toString();
    }

    /** Runs the reduce on {@code spark}, telling {@code progress}; one result per input written. */
    public List<ReduceResult> run(SparkSession spark, Progress progress) {
        return run(JobEngine.spark(spark), progress, () -> {});
    }

    /** As {@link #run(SparkSession, Progress)}, with the tasks on {@code engine}. */
    public List<ReduceResult> run(JobEngine engine, Progress progress) {
        return run(engine, progress, () -> {});
    }

    /**
     * As {@link #run(JobEngine, Progress)}; {@code taken} runs once the output is this job's (its lock held),
     * right before the job: where a caller says what it is about to write, so that a refusal of the output
     * (another job writing it) is never preceded by the promise.
     */
    public List<ReduceResult> run(JobEngine engine, Progress progress, Runnable taken) {
        requireNonNull(taken, "taken is null");
        requireNonNull(progress, "progress is null");
        if (directory == null) {
            taken.run();
            return write(engine, progress);
        }
        try (OutputLock lock = directory.lock()) {
            taken.run();
            return directory.replaceWith(() -> write(engine, progress));
        }
    }

    private List<ReduceResult> write(JobEngine engine, Progress progress) {
        List<ReduceResult> results = new ArrayList<>();
        for (int i = 0; i < reduces.size(); i++) {
            ReducePlan reducePlan = reduces.get(i);
            if (npyTarget != null) {
                writeNpy(engine, reducePlan);
            } else {
                writeDataset(engine, progress, reducePlan, new org.apache.hadoop.fs.Path(location(i)));
            }
            results.add(new ReduceResult(
                    location(i),
                    reducePlan.inputIndex(),
                    reducePlan.input(),
                    reducePlan.dtype(),
                    reducePlan.regime(),
                    reduce.formatName(),
                    tasks(reducePlan),
                    reducePlan.input().elements() * reducePlan.dtype().byteWidth()));
        }
        if (npyTarget == null && reduces.size() > 1) {
            DatasetIndex.write(
                    directory.fileSystem(),
                    directory.path(),
                    reduces.stream()
                            .map(reducePlan -> Integer.toString(reducePlan.inputIndex()))
                            .toList());
        }
        return results;
    }

    private void writeNpy(JobEngine engine, ReducePlan reducePlan) {
        byte[] header = NpyWriter.header(NpyExporter.descr(reducePlan.dtype()), reducePlan.input());
        Path temp = LocalFiles.createTemp("write", npyTarget, npyTarget.getParent());
        try {
            try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temp), NPY_BUFFER_BYTES)) {
                out.write(header);
                if (reducePlan.regime() == ReducePlan.Regime.ROWS_KEPT) {
                    ReduceJob.writeKept(
                            engine, gradient, reducePlan, keptPartitions(reducePlan), description(reducePlan), out);
                } else {
                    out.write(sum(engine, reducePlan).values());
                }
            }
            LocalFiles.move("write", temp, npyTarget, reduce.write().overwrite());
        } catch (IOException e) {
            throw new OutputException("Cannot write " + npyTarget + ": " + LocalFiles.reason(e));
        } finally {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException e) {
                // the file is deleted on exit at the latest
            }
        }
    }

    private void writeDataset(
            JobEngine engine, Progress progress, ReducePlan reducePlan, org.apache.hadoop.fs.Path target) {
        Shape input = reducePlan.input();
        CopyProgram identity = CopyProgram.of(input, input.strides());
        JobSource source;
        PartitionPlan partitions;
        if (reducePlan.regime() == ReducePlan.Regime.ROWS_KEPT) {
            source = new JobSource.Reduced(gradient, reducePlan);
            partitions = keptPartitions(reducePlan);
        } else {
            source = new JobSource.Shipped(sum(engine, reducePlan));
            partitions = PartitionPlan.builder(input, reducePlan.dtype()).build();
        }
        // an array format's partitions are whole chunks (or shards) of the first dim
        partitions = reduce.files().partitions(partitions, reducePlan.dtype());
        Map<String, String> request = new LinkedHashMap<>(ManifestRequests.of(
                plan.request(),
                reduces.size() > 1 || reduce.inputIndex().isPresent()
                        ? OptionalInt.of(reducePlan.inputIndex())
                        : OptionalInt.empty()));
        request.put(ManifestRequests.OPERATION, ManifestRequests.REDUCE);
        List<Manifest.ManifestInput> inputs = List.of(new Manifest.ManifestInput(
                gradientName,
                ManifestShapes.list(gradient.shape()),
                gradient.dtype().typeName()));
        DatasetJob.of(
                        source,
                        identity,
                        partitions,
                        reduce.files(),
                        java.util.Optional.empty(),
                        target,
                        description(reducePlan),
                        request,
                        inputs)
                .run(engine, progress);
    }

    private SourceTensor sum(JobEngine engine, ReducePlan reducePlan) {
        return ReduceJob.of(gradient, reducePlan, tasks(reducePlan)).run(engine, description(reducePlan));
    }

    /** The result's partitions, as many as the tasks that read the gradient (bounded by the result's rows). */
    private PartitionPlan keptPartitions(ReducePlan reducePlan) {
        return PartitionPlan.builder(reducePlan.input(), reducePlan.dtype())
                .partitions(tasks(reducePlan))
                .build();
    }

    private String description(ReducePlan reducePlan) {
        return "tensor-broadcast reduce " + plan.dialect().dialectName() + ": "
                + reducePlan.output().toList()
                + " to " + reducePlan.input().toList() + " "
                + reducePlan.dtype().typeName() + " ("
                + reduce.formatName() + ", " + reducePlan.regime() + ")";
    }
}
