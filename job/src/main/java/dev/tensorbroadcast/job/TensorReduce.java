package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;

/**
 * The adjoint of a broadcast as a Spark job: a gradient shaped like the forward broadcast's output, summed back to
 * the shape of one of its inputs (or of each). The request is the forward broadcast, said as for
 * {@link TensorBroadcast}.
 *
 * <pre>{@code
 * List<ReduceResult> written = TensorReduce.builder()
 *         .gradient("hdfs:///grads/delta")
 *         .dialect(Dialect.PYTORCH)
 *         .inputShape(Shape.of(1, 4096))
 *         .shape(TargetShape.parse("[-1,4096]"))
 *         .output("/tmp/bias-grad.npy")
 *         .build()
 *         .run(spark);
 * }</pre>
 */
public final class TensorReduce {
    private final String gradientLocation;
    private final SourceTensor gradientTensor;
    private final String column;
    private final Shape rowShape;
    private final DialectArguments arguments;
    private final List<Shape> inputShapes;
    private final Integer inputIndex;
    private final String output;
    private final WriteSpec write;
    private final Partitioning partitioning;
    private final long shipThreshold;

    private TensorReduce(Builder builder, Partitioning partitioning) {
        if ((builder.gradientLocation == null) == (builder.gradientTensor == null)) {
            throw new IllegalArgumentException("give the gradient once: a location or a tensor");
        }
        this.gradientLocation = builder.gradientLocation;
        this.gradientTensor = builder.gradientTensor;
        this.column = builder.column;
        this.rowShape = builder.rowShape;
        if (!builder.arguments.hasDialect()) {
            throw new NullPointerException("dialect is null");
        }
        this.arguments = builder.arguments;
        this.inputShapes = List.copyOf(builder.inputShapes);
        this.inputIndex = builder.inputIndex;
        this.output = requireNonNull(builder.output, "output is null");
        WriteSpec given = builder.write.build();
        if (given.format().filter(format -> !format.oneFile()).isPresent() && output.endsWith(".npy")) {
            throw new InvalidRequestException("Cannot write a " + given.format().get() + " dataset to '"
                    + output + "': a path ending in .npy is a .npy file; give a directory for the"
                    + " dataset, or drop " + Param.FORMAT.named() + " to write the .npy");
        }
        this.write = given.withDefault(output.endsWith(".npy") ? OutputFormat.NPY : OutputFormat.ARROW);
        this.partitioning = partitioning;
        this.shipThreshold = builder.shipThreshold;
    }

    /** A builder of a reduce request; {@link Builder#build} checks it. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Every check that needs no Spark: reads the gradient (a file) or its footers (a dataset), plans, checks the
     * output.
     */
    public PreparedReduce prepare(Configuration conf) {
        JvmAccess.requireOpens();
        return PreparedReduce.prepare(this, conf);
    }

    /** Prepares and runs: one result per reduced input. */
    public List<ReduceResult> run(SparkSession spark) {
        return prepare(spark.sparkContext().hadoopConfiguration()).run(spark, Progress.NONE);
    }

    Optional<String> gradientLocation() {
        return Optional.ofNullable(gradientLocation);
    }

    Optional<SourceTensor> gradientTensor() {
        return Optional.ofNullable(gradientTensor);
    }

    String gradientName() {
        return gradientLocation != null ? gradientLocation : TensorBroadcast.IN_MEMORY;
    }

    Optional<String> column() {
        return Optional.ofNullable(column);
    }

    Optional<Shape> rowShape() {
        return Optional.ofNullable(rowShape);
    }

    /** The forward broadcast's dialect. */
    public Dialect dialect() {
        return arguments.dialect();
    }

    /** The dialect and the forward request's arguments besides the inputs. */
    DialectArguments arguments() {
        return arguments;
    }

    List<Shape> inputShapes() {
        return inputShapes;
    }

    OptionalInt inputIndex() {
        return inputIndex == null ? OptionalInt.empty() : OptionalInt.of(inputIndex);
    }

    /** Where the results go: a {@code .npy} file or a dataset directory (one per input when several). */
    public String output() {
        return output;
    }

    /** {@code npy}, or the dataset's format's name. */
    public String formatName() {
        return write.format().orElseThrow().formatName();
    }

    /** How a dataset result's files are written (its format is arrow for a {@code .npy} result, which has none). */
    FileOptions files() {
        return write.files();
    }

    /** The whole write request. */
    public WriteSpec write() {
        return write;
    }

    /** The partition size or count given, if any. */
    Partitioning partitioning() {
        return partitioning;
    }

    long shipThreshold() {
        return shipThreshold;
    }

    /** Builds a {@link TensorReduce}: the gradient, the forward request, the output and how to write it. */
    public static final class Builder extends RequestBuilder<Builder> {
        private String gradientLocation;
        private SourceTensor gradientTensor;
        private final List<Shape> inputShapes = new ArrayList<>();
        private Integer inputIndex;

        private Builder() {}

        /** The gradient: a {@code .npy} or Arrow IPC file, or a dataset directory, shaped like the forward output. */
        public Builder gradient(String location) {
            this.gradientLocation = requireNonNull(location, "location is null");
            return this;
        }

        /** The gradient already in memory, shaped like the forward output. */
        public Builder gradient(SourceTensor tensor) {
            this.gradientTensor = requireNonNull(tensor, "tensor is null");
            return this;
        }

        /** The shape of a forward input; repeat for a joint broadcast ({@code broadcast-tensors}). */
        public Builder inputShape(Shape shape) {
            inputShapes.add(requireNonNull(shape, "shape is null"));
            return this;
        }

        /**
         * Reduce only this forward input; without it, every input (written to {@code output/0}, {@code output/1}...).
         */
        public Builder inputIndex(int index) {
            this.inputIndex = index;
            return this;
        }

        /** One {@code .npy} file on the driver's disk rather than a dataset. */
        public Builder npy() {
            write.npy();
            return this;
        }

        /** {@code npy}, or a dataset format by name ({@code arrow}, {@code parquet}), as {@code --format} says it. */
        public Builder format(String name) {
            return format(OutputFormat.parseResult(requireNonNull(name, "name is null")));
        }

        /** The request, checked: at most one of partition size and count. */
        public TensorReduce build() {
            return new TensorReduce(this, partitioning());
        }
    }
}
