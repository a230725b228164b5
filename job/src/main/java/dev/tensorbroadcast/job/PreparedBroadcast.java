package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.job.base.DiscardedBroadcast;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.commit.DatasetIndex;
import dev.tensorbroadcast.job.commit.OutputDirectory;
import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.commit.OutputOverlap;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestRequests;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.pipeline.DatasetJob;
import dev.tensorbroadcast.job.pipeline.DiscardJob;
import dev.tensorbroadcast.job.pipeline.JobEngine;
import dev.tensorbroadcast.job.pipeline.RowDatasets;
import dev.tensorbroadcast.job.sink.OutputPartitions;
import dev.tensorbroadcast.job.source.JobSource;
import dev.tensorbroadcast.job.source.KeptSpec;
import dev.tensorbroadcast.job.source.LoadedSource;
import dev.tensorbroadcast.job.source.RowGroupCuts;
import dev.tensorbroadcast.job.source.SourceLoader;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.RowLineage;
import dev.tensorbroadcast.planner.SourceRows;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A broadcast that passed every check that needs no Spark: its sources are read, its plan made, its output location
 * allowed. Running it is the first thing that writes.
 */
public final class PreparedBroadcast {
    private final TensorBroadcast broadcast;
    private final List<JobSource> sources;
    private final BroadcastPlan plan;
    private final List<PartitionPlan> partitions;
    private final OutputDirectory output;
    private final List<Optional<KeptSpec>> kept;
    private final List<Optional<OutputPartitions>> directories;
    /** Each input as the manifest names it: see {@link InputNames}. */
    private final List<String> inputNames;

    private PreparedBroadcast(
            TensorBroadcast broadcast,
            List<JobSource> sources,
            BroadcastPlan plan,
            List<PartitionPlan> partitions,
            OutputDirectory output,
            List<Optional<KeptSpec>> kept,
            List<Optional<OutputPartitions>> directories,
            List<String> inputNames) {
        this.broadcast = broadcast;
        this.inputNames = List.copyOf(inputNames);
        this.directories = List.copyOf(directories);
        this.sources = List.copyOf(sources);
        this.kept = List.copyOf(kept);
        this.plan = plan;
        this.partitions = List.copyOf(partitions);
        this.output = output;
    }

    static PreparedBroadcast prepare(TensorBroadcast broadcast, Configuration conf) {
        SourceLoader loader =
                new SourceLoader(conf, broadcast.sourceLimits(), broadcast.arrowOptions(), broadcast.rowShape());
        if (broadcast.sources().size() > 1) {
            // broadcast-tensors: --row-shape shapes its dataset inputs, next to .npy inputs
            loader = loader.rowShapeForDatasetsOnly();
        }
        List<LoadedSource> loaded = new ArrayList<>();
        for (TensorBroadcast.Source source : broadcast.sources()) {
            loaded.add(source.tensor() != null ? LoadedSource.of(source.tensor()) : loader.load(source.location()));
        }
        if (broadcast.rowShape().isPresent() && loaded.stream().allMatch(source -> source.dataset() == null)) {
            throw SourceLoader.rowShapeOnNpy(
                    broadcast.rowShape().get(), broadcast.sources().get(0).name());
        }
        BroadcastRequest.Builder request = broadcast.arguments().request();
        for (LoadedSource source : loaded) {
            request.input(source.shape(), source.dtype());
        }
        BroadcastPlan plan = request.build().plan();
        KeptColumnsChoice.requireDataset(
                broadcast.keep(), loaded, broadcast.sources().get(0).name());
        List<PartitionPlan> partitions = new ArrayList<>();
        List<JobSource> sources = new ArrayList<>();
        List<Optional<KeptSpec>> kept = new ArrayList<>();
        List<Optional<OutputPartitions>> directories = new ArrayList<>();
        if (!broadcast.partitionBy().isEmpty() && loaded.size() > 1) {
            throw new InvalidRequestException("Cannot partition the output by "
                    + String.join(",", broadcast.partitionBy()) + ": it has " + loaded.size() + " inputs, each"
                    + " written as a dataset of its own; " + Param.PARTITION_BY.named() + " partitions one input's"
                    + " output (expand)");
        }
        for (int i = 0; i < loaded.size(); i++) {
            LoadedSource source = loaded.get(i);
            // strings are sized by the source's real average length, not the planner's guess
            PartitionPlan.Builder partitioning =
                    PartitionPlan.builder(plan.output(), source.dtype()).elementBits(source.sizingBits());
            broadcast.partitioning().bytes().ifPresent(partitioning::partitionBytes);
            broadcast.partitioning().count().ifPresent(partitioning::partitions);
            PartitionPlan partitionPlan = partitioning.build();
            Optional<RowLineage> lineage = RowLineage.of(plan, i, partitionPlan);
            if (source.dataset() != null
                    && source.dataset().valueBytes() > broadcast.shipThreshold()
                    && broadcast.partitioning().count().isEmpty()
                    && lineage.isPresent()) {
                // read in slices: no row group read by two tasks
                partitionPlan = RowGroupCuts.align(
                        partitionPlan,
                        source.dataset(),
                        lineage.get(),
                        broadcast.partitioning().bytesOrDefault());
            }
            Optional<KeptSpec> chosenColumns = KeptColumnsChoice.choose(
                    broadcast.keep(), source, broadcast.sources().get(i).name(), lineage);
            PartitionByChoice.Chosen chosen = PartitionByChoice.choose(
                    broadcast.partitionBy(),
                    source,
                    broadcast.sources().get(i).name(),
                    chosenColumns,
                    lineage,
                    partitionPlan);
            // an array format's partitions are whole chunks (or shards) of the first dim
            partitionPlan = broadcast.files().partitions(chosen.plan(), source.dtype());
            Optional<KeptSpec> keptColumns = chosen.kept();
            directories.add(chosen.partitions());
            partitions.add(partitionPlan);
            broadcast
                    .files()
                    .array()
                    .ifPresent(array -> keptColumns.ifPresent(columns -> {
                        throw new InvalidRequestException("Cannot keep columns "
                                + columns.columns().stream()
                                        .map(column -> column.name())
                                        .toList() + " of input '"
                                + broadcast.sources().get(0).name()
                                + "' with format " + array.name() + ": an array holds the tensor alone; add "
                                + Param.KEEP.given("KeepColumns.none()", "none"));
                    }));
            kept.add(keptColumns);
            sources.add(jobSource(source, plan, i, broadcast.shipThreshold(), keptColumns, conf));
        }
        broadcast.files().requireEncodingFits(loaded.get(0).dtype());
        broadcast
                .output()
                .ifPresent(location -> OutputOverlap.requireApart(
                        location,
                        broadcast.sources().stream()
                                .map(TensorBroadcast.Source::location)
                                .filter(java.util.Objects::nonNull)
                                .toList(),
                        conf));
        OutputDirectory output = broadcast
                .output()
                .map(location ->
                        OutputDirectory.check(location, broadcast.write().overwrite(), conf))
                .orElse(null);
        if (output != null) {
            requireRoom(broadcast, output, partitions);
        }
        partitions.forEach(TaskCountGuard::check);
        List<String> inputNames = broadcast.sources().stream()
                .map(source -> InputNames.qualified(source.location(), conf))
                .toList();
        return new PreparedBroadcast(broadcast, sources, plan, partitions, output, kept, directories, inputNames);
    }

    /** A dataset up to the ship threshold is read here and shipped whole; a larger one is read by the tasks. */
    private static JobSource jobSource(
            LoadedSource source,
            BroadcastPlan plan,
            int input,
            long shipThreshold,
            Optional<KeptSpec> kept,
            Configuration conf) {
        if (source.tensor() != null) {
            return new JobSource.Shipped(source.tensor());
        }
        TensorDataset dataset = source.dataset();
        if (dataset.valueBytes() <= shipThreshold) {
            SourceRows all = new SourceRows(0, dataset.rows());
            byte[] keptRows = null;
            if (kept.isPresent()) {
                try (KeptRows rows = KeptReader.read(dataset, all, kept.get().columns(), conf)) {
                    keptRows = rows.toIpc();
                }
            }
            return new JobSource.Shipped(DatasetSlices.read(dataset, all, conf).tensor(), keptRows);
        }
        return new JobSource.Sliced(dataset, plan, input);
    }

    /**
     * The resource guards, before anything is written: the values must fit the output limit, and the files (values
     * plus the 8-byte row index, uncompressed) the usable space of a local file system.
     */
    private static void requireRoom(TensorBroadcast broadcast, OutputDirectory output, List<PartitionPlan> plans) {
        long bytes = 0;
        long fileBytes = 0;
        for (PartitionPlan plan : plans) {
            bytes = saturatedAdd(bytes, plan.bytes());
            fileBytes = saturatedAdd(
                    fileBytes,
                    saturatedAdd(plan.bytes(), plan.rows() > Long.MAX_VALUE / 8 ? Long.MAX_VALUE : 8 * plan.rows()));
        }
        OptionalLong usable = broadcast.write().checkFreeSpace() ? output.usableBytes() : OptionalLong.empty();
        OutputRoom.require(
                bytes, fileBytes, output.path().toString(), broadcast.write().maxOutputBytes(), usable);
    }

    private static long saturatedAdd(long a, long b) {
        return OutputRoom.saturatedAdd(a, b);
    }

    /** The plan: the output's shape and dtype, and each input's copy program. */
    public BroadcastPlan plan() {
        return plan;
    }

    /** How many inputs the broadcast has; each writes a dataset of its own when there are several. */
    public int inputCount() {
        return sources.size();
    }

    /** How the tasks get input {@code input}: shipped whole, or read in slices. */
    JobSource source(int input) {
        return sources.get(input);
    }

    /** How the tasks get input {@code input}: {@code shipped} whole, or read in {@code slices}. */
    public String sourceStrategy(int input) {
        return sources.get(input).strategy();
    }

    /** The element type of input {@code input}, as read (and of its broadcast). */
    public DType inputDtype(int input) {
        return sources.get(input).dtype();
    }

    /** How the broadcast of input {@code input} is cut into rows and partitions. */
    public PartitionPlan partitions(int input) {
        return partitions.get(input);
    }

    /** The columns input {@code input} keeps next to its rows, if any. */
    Optional<KeptSpec> kept(int input) {
        return kept.get(input);
    }

    /** The bytes of values all datasets hold together. */
    public long outputBytes() {
        return partitions.stream().mapToLong(PartitionPlan::bytes).sum();
    }

    /** The qualified output path, when an output was given. */
    public Optional<Path> outputPath() {
        return Optional.ofNullable(output).map(OutputDirectory::path);
    }

    /** Writes the only source's broadcast into the output directory. */
    public Manifest run(SparkSession spark, Progress progress) {
        return run(JobEngine.spark(spark), progress, () -> {});
    }

    /** As {@link #run(SparkSession, Progress)}, with the tasks on {@code engine}. */
    public Manifest run(JobEngine engine, Progress progress) {
        return run(engine, progress, () -> {});
    }

    /**
     * As {@link #run(JobEngine, Progress)}; {@code taken} runs once the output is this job's (its lock held),
     * right before the job: where a caller says what it is about to write, so that a refusal of the output
     * (another job writing it) is never preceded by the promise.
     */
    public Manifest run(JobEngine engine, Progress progress, Runnable taken) {
        requireNonNull(taken, "taken is null");
        requireNonNull(progress, "progress is null");
        if (sources.size() != 1) {
            throw new InvalidRequestException("Cannot write " + sources.size() + " inputs into one dataset: use"
                    + " runAll (broadcast-tensors), which writes output/0, output/1, ...");
        }
        OutputDirectory directory = requireOutput();
        try (OutputLock lock = directory.lock()) {
            taken.run();
            return directory.replaceWith(
                    () -> job(0, directory.path(), ManifestRequests.of(plan.request(), OptionalInt.empty()))
                            .run(engine, progress));
        }
    }

    /** Writes the broadcast of every input {@code i} into {@code output/i}. */
    public List<Manifest> runAll(SparkSession spark, Progress progress) {
        return runAll(JobEngine.spark(spark), progress, () -> {});
    }

    /** As {@link #runAll(SparkSession, Progress)}, with the tasks on {@code engine}. */
    public List<Manifest> runAll(JobEngine engine, Progress progress) {
        return runAll(engine, progress, () -> {});
    }

    /**
     * As {@link #runAll(JobEngine, Progress)}, with {@code taken} as {@link #run(JobEngine, Progress, Runnable)}'s.
     */
    public List<Manifest> runAll(JobEngine engine, Progress progress, Runnable taken) {
        requireNonNull(taken, "taken is null");
        requireNonNull(progress, "progress is null");
        OutputDirectory directory = requireOutput();
        try (OutputLock lock = directory.lock()) {
            taken.run();
            return directory.replaceWith(() -> {
                List<Manifest> manifests = new ArrayList<>();
                List<String> names = new ArrayList<>();
                for (int i = 0; i < sources.size(); i++) {
                    names.add(Integer.toString(i));
                    manifests.add(job(
                                    i,
                                    new Path(directory.path(), names.get(i)),
                                    ManifestRequests.of(plan.request(), OptionalInt.of(i)))
                            .run(engine, progress));
                }
                DatasetIndex.write(directory.fileSystem(), directory.path(), names);
                return manifests;
            });
        }
    }

    /**
     * Computes the broadcast of source {@code input} batch by batch and discards it (the null sink,
     * {@code --format null}): writes nothing and needs no output.
     */
    public DiscardedBroadcast discard(SparkSession spark, Progress progress, int input) {
        return discard(JobEngine.spark(spark), progress, input);
    }

    /** As {@link #discard(SparkSession, Progress, int)}, with the tasks on {@code engine}. */
    public DiscardedBroadcast discard(JobEngine engine, Progress progress, int input) {
        if (input < 0 || input >= sources.size()) {
            throw new InvalidRequestException(
                    "Cannot compute input " + input + ": there are " + sources.size() + " inputs, numbered from 0");
        }
        return DiscardJob.of(
                        sources.get(input),
                        plan.copyProgram(input),
                        partitions.get(input),
                        description(input, DiscardJob.FORMAT_NAME))
                .run(engine, requireNonNull(progress, "progress is null"));
    }

    /**
     * The broadcast of input {@code input} as rows computed when the dataset is used: {@code index} and {@code tensor}.
     */
    public Dataset<Row> toDataset(SparkSession spark, int input) {
        return RowDatasets.of(spark, shipped(input, "give"), plan.copyProgram(input), partitions.get(input));
    }

    /** The source tensor of a shipped input; a dataset above the ship threshold is only read by the writing tasks. */
    private dev.tensorbroadcast.arrowio.SourceTensor shipped(int input, String verb) {
        if (input < 0 || input >= sources.size()) {
            throw new InvalidRequestException("Cannot " + verb + " input " + input + " as a dataset: there are "
                    + sources.size() + " inputs, numbered from 0");
        }
        if (!(sources.get(input) instanceof JobSource.Shipped shipped)) {
            throw new InvalidRequestException("Cannot " + verb + " input " + input + " as rows: it is a dataset above"
                    + " the ship threshold; write it with run, or raise the ship threshold");
        }
        return shipped.tensor();
    }

    /** The Spark job description (the UI's name for it). */
    public String description(int input) {
        return description(input, broadcast.files().format().name());
    }

    private String description(int input, String format) {
        String inputs = sources.size() == 1 ? "" : " input " + input + " of " + sources.size();
        return "tensor-broadcast " + plan.dialect().dialectName() + inputs + ": "
                + sources.get(input).shape().toList() + " to " + plan.output().toList() + " "
                + sources.get(input).dtype().typeName() + " (" + format + ")";
    }

    private OutputDirectory requireOutput() {
        if (output == null) {
            throw new InvalidRequestException("Cannot write a broadcast without an output: give an output"
                    + " directory (a local path or a Hadoop URI)");
        }
        return output;
    }

    private DatasetJob job(int input, Path directory, Map<String, String> request) {
        List<Manifest.ManifestInput> inputs = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            inputs.add(new Manifest.ManifestInput(
                    inputNames.get(i),
                    ManifestShapes.list(sources.get(i).shape()),
                    sources.get(i).dtype().typeName(),
                    broadcast.arrowOptions().column().orElse(null),
                    broadcast.rowShape().map(ManifestShapes::list).orElse(null)));
        }
        return DatasetJob.of(
                sources.get(input),
                plan.copyProgram(input),
                partitions.get(input),
                broadcast.files(),
                kept.get(input),
                directories.get(input),
                directory,
                description(input),
                withPartitionBy(request),
                inputs);
    }

    /** The request as the manifest records it, with the partition-by keys when there are any. */
    private Map<String, String> withPartitionBy(Map<String, String> request) {
        if (broadcast.partitionBy().isEmpty()) {
            return request;
        }
        Map<String, String> recorded = new java.util.LinkedHashMap<>(request);
        recorded.put(ManifestRequests.PARTITION_BY, String.join(",", broadcast.partitionBy()));
        return recorded;
    }
}
