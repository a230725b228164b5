package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestRequests;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.spark.DatasetJob;
import dev.tensorbroadcast.job.spark.DiscardJob;
import dev.tensorbroadcast.job.spark.DiscardedDataset;
import dev.tensorbroadcast.job.spark.JobProgress;
import dev.tensorbroadcast.job.spark.OutputDirectory;
import dev.tensorbroadcast.job.spark.RowDatasets;
import dev.tensorbroadcast.job.spark.SourceLoader;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
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
    private final List<SourceTensor> tensors;
    private final BroadcastPlan plan;
    private final List<PartitionPlan> partitions;
    private final OutputDirectory output;

    private PreparedBroadcast(TensorBroadcast broadcast, List<SourceTensor> tensors, BroadcastPlan plan,
            List<PartitionPlan> partitions, OutputDirectory output) {
        this.broadcast = broadcast;
        this.tensors = List.copyOf(tensors);
        this.plan = plan;
        this.partitions = List.copyOf(partitions);
        this.output = output;
    }

    static PreparedBroadcast prepare(TensorBroadcast broadcast, Configuration conf) {
        SourceLoader loader = new SourceLoader(conf, broadcast.sourceLimits(), broadcast.arrowOptions());
        List<SourceTensor> tensors = new ArrayList<>();
        for (TensorBroadcast.Source source : broadcast.sources()) {
            tensors.add(source.tensor() != null ? source.tensor() : loader.read(source.location()));
        }
        BroadcastRequest.Builder request = BroadcastRequest.builder(broadcast.dialect());
        for (SourceTensor tensor : tensors) {
            request.input(tensor.shape(), tensor.dtype());
        }
        broadcast.shape().ifPresent(request::target);
        broadcast.mode().ifPresent(request::mode);
        broadcast.axesMapping().ifPresent(request::axesMapping);
        broadcast.broadcastAxes().ifPresent(request::broadcastAxes);
        broadcast.axis().ifPresent(request::axis);
        BroadcastPlan plan = request.build().plan();
        List<PartitionPlan> partitions = new ArrayList<>();
        for (SourceTensor tensor : tensors) {
            // strings are sized by the source's real average length, not the planner's guess
            PartitionPlan.Builder partitioning = PartitionPlan.builder(plan.output(), tensor.dtype())
                    .elementBits(tensor.sizingBits());
            broadcast.partitionBytes().ifPresent(partitioning::partitionBytes);
            broadcast.partitions().ifPresent(partitioning::partitions);
            partitions.add(partitioning.build());
        }
        OutputDirectory output = broadcast.output()
                .map(location -> OutputDirectory.check(location, broadcast.overwrite(), conf))
                .orElse(null);
        return new PreparedBroadcast(broadcast, tensors, plan, partitions, output);
    }

    public BroadcastPlan plan() {
        return plan;
    }

    public int inputCount() {
        return tensors.size();
    }

    public SourceTensor source(int input) {
        return tensors.get(input);
    }

    public PartitionPlan partitions(int input) {
        return partitions.get(input);
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
    public Manifest run(SparkSession spark, JobProgress progress) {
        if (tensors.size() != 1) {
            throw new InvalidRequestException("Cannot write " + tensors.size() + " inputs into one dataset: use"
                    + " runAll (broadcast-tensors), which writes output/0, output/1, ...");
        }
        OutputDirectory directory = requireOutput();
        directory.clear();
        return job(0, directory.path(), ManifestRequests.of(plan.request(), OptionalInt.empty())).run(spark, progress);
    }

    /** Writes the broadcast of every input {@code i} into {@code output/i}. */
    public List<Manifest> runAll(SparkSession spark, JobProgress progress) {
        OutputDirectory directory = requireOutput();
        directory.clear();
        List<Manifest> manifests = new ArrayList<>();
        for (int i = 0; i < tensors.size(); i++) {
            manifests.add(job(i, new Path(directory.path(), Integer.toString(i)), ManifestRequests.of(plan.request(), OptionalInt.of(i)))
                    .run(spark, progress));
        }
        return manifests;
    }

    /**
     * Computes the broadcast of source {@code input} batch by batch and discards it (the null sink,
     * {@code --format null}): writes nothing and needs no output.
     */
    public DiscardedDataset discard(SparkSession spark, JobProgress progress, int input) {
        checkInput(input, "compute");
        return DiscardJob.of(tensors.get(input), plan.copyProgram(input), partitions.get(input),
                description(input, DiscardJob.FORMAT_NAME)).run(spark, progress);
    }

    public Dataset<Row> toDataset(SparkSession spark, int input) {
        checkInput(input, "give");
        return RowDatasets.of(spark, tensors.get(input), plan.copyProgram(input), partitions.get(input));
    }

    private void checkInput(int input, String verb) {
        if (input < 0 || input >= tensors.size()) {
            throw new InvalidRequestException("Cannot " + verb + " input " + input + " as a dataset: there are "
                    + tensors.size() + " inputs, numbered from 0");
        }
    }

    /** The Spark job description (the UI's name for it). */
    public String description(int input) {
        return description(input, broadcast.format().formatName());
    }

    private String description(int input, String format) {
        String inputs = tensors.size() == 1 ? "" : " input " + input + " of " + tensors.size();
        return "tensor-broadcast " + plan.dialect().dialectName() + inputs + ": "
                + tensors.get(input).shape().toList() + " to " + plan.output().toList() + " "
                + tensors.get(input).dtype().typeName() + " (" + format + ")";
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
        for (int i = 0; i < tensors.size(); i++) {
            inputs.add(new Manifest.ManifestInput(broadcast.sources().get(i).name(), ManifestShapes.list(tensors.get(i).shape()),
                    tensors.get(i).dtype().typeName()));
        }
        return DatasetJob.of(tensors.get(input), plan.copyProgram(input), partitions.get(input), broadcast.format(),
                broadcast.compression(), directory, description(input), request, inputs);
    }
}
