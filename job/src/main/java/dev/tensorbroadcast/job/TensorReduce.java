package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
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
    private final Long partitionBytes;
    private final Long partitions;
    private final long shipThreshold;

    private TensorReduce(Builder builder) {
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
        this.partitionBytes = builder.partitionBytes;
        this.partitions = builder.partitions;
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

    long maxOutputBytes() {
        return write.maxOutputBytes();
    }

    boolean checkFreeSpace() {
        return write.checkFreeSpace();
    }

    OptionalLong partitionBytes() {
        return partitionBytes == null ? OptionalLong.empty() : OptionalLong.of(partitionBytes);
    }

    OptionalLong partitions() {
        return partitions == null ? OptionalLong.empty() : OptionalLong.of(partitions);
    }

    boolean overwrite() {
        return write.overwrite();
    }

    long shipThreshold() {
        return shipThreshold;
    }

    /** Builds a {@link TensorReduce}: the gradient, the forward request, the output and how to write it. */
    public static final class Builder extends WriteBuilder<Builder> {
        private String gradientLocation;
        private SourceTensor gradientTensor;
        private String column;
        private Shape rowShape;
        private final List<Shape> inputShapes = new ArrayList<>();
        private Integer inputIndex;
        private String output;
        private Long partitionBytes;
        private Long partitions;
        private long shipThreshold = TensorBroadcast.DEFAULT_SHIP_THRESHOLD;

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

        /** The Arrow column holding the gradient, when a file or dataset has several. */
        public Builder column(String name) {
            this.column = requireNonNull(name, "name is null");
            return this;
        }

        /** The row shape of a dataset gradient whose column is a list of numbers. */
        public Builder rowShape(Shape shape) {
            this.rowShape = requireNonNull(shape, "shape is null");
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

        /** A {@code .npy} path on the driver's disk, or a dataset directory (a local path or a Hadoop URI). */
        public Builder output(String location) {
            this.output = requireNonNull(location, "location is null");
            return this;
        }

        /** A dataset of this format; by default npy when the output ends in {@code .npy}, else arrow. */
        public Builder format(OutputFormat format) {
            write.format(format);
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

        /** Gradient bytes each summing task reads (default 128 MiB). */
        public Builder partitionBytes(long bytes) {
            if (bytes <= 0) {
                throw new InvalidRequestException("Cannot use partition size " + bytes + ": it must be at least 1"
                        + " byte");
            }
            this.partitionBytes = bytes;
            return this;
        }

        /** An exact number of summing tasks instead of a size; fewer when the gradient has fewer rows. */
        public Builder partitions(long count) {
            if (count <= 0 || count > Integer.MAX_VALUE) {
                throw new InvalidRequestException("Cannot use " + count + " partitions: the count must be from 1 to "
                        + Integer.MAX_VALUE);
            }
            this.partitions = count;
            return this;
        }

        /**
         * A {@code .npy} gradient of at most this many bytes is read by the driver and shipped to every task; a larger
         * one stays in its file, and each task reads its rows (default 64 MiB).
         */
        public Builder shipThreshold(long bytes) {
            if (bytes < 0) {
                throw new InvalidRequestException("Cannot use ship threshold " + bytes + ": it must be 0 or more");
            }
            this.shipThreshold = bytes;
            return this;
        }

        /** The request, checked: at most one of partition size and count. */
        public TensorReduce build() {
            TensorBroadcast.requireOnePartitioning(partitionBytes, partitions);
            return new TensorReduce(this);
        }
    }
}
