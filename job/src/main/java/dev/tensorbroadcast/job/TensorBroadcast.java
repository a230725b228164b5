package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowSourceOptions;
import dev.tensorbroadcast.job.base.DiscardedBroadcast;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.pipeline.ColumnExpansion;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.EnumNames;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The entry point for Spark applications: a broadcast request over source tensors (files on any Hadoop file system,
 * or tensors in memory), and where and how to write it; {@code examples/java/.../ExpandExample.java} is a whole
 * program. {@link #prepare} does every check that needs no Spark (reads the sources, plans, checks the output
 * location); {@link #run} and {@link #toDataset} prepare first, so a refused request never starts a Spark job.
 */
public final class TensorBroadcast {
    /** How an in-memory source is named in messages and manifests. */
    public static final String IN_MEMORY = "(in memory)";
    /** Datasets up to this many bytes of values are shipped whole; larger ones are read in slices by the tasks. */
    public static final long DEFAULT_SHIP_THRESHOLD = 64L << 20;
    /** The most bytes a broadcast writes unless told otherwise ({@link Builder#maxOutputBytes}): one TiB. */
    public static final long DEFAULT_MAX_OUTPUT_BYTES = 1L << 40;
    /** A {@link Builder#maxOutputBytes} that sets no limit. */
    public static final long NO_OUTPUT_LIMIT = Long.MAX_VALUE;

    private final List<Source> sources;
    private final DialectArguments arguments;
    private final String output;
    private final WriteSpec write;
    private final Partitioning partitioning;
    private final ArrowSourceOptions arrowOptions;
    private final SourceLimits sourceLimits;
    private final Shape rowShape;
    private final long shipThreshold;
    private final KeepColumns keep;
    private final List<String> partitionBy;

    private TensorBroadcast(Builder builder, Partitioning partitioning, WriteSpec write) {
        this.sources = List.copyOf(builder.sources);
        this.arguments = builder.arguments;
        this.output = builder.output;
        this.write = write;
        this.partitioning = partitioning;
        this.arrowOptions = builder.column == null
                ? ArrowSourceOptions.defaults()
                : ArrowSourceOptions.defaults().withColumn(builder.column);
        this.sourceLimits = builder.sourceLimits;
        this.rowShape = builder.rowShape;
        this.shipThreshold = builder.shipThreshold;
        this.keep = builder.keep;
        this.partitionBy = List.copyOf(builder.partitionBy);
    }

    /** A builder of a broadcast request; {@link Builder#build} checks it. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads the sources through {@code conf}, plans, and checks the output location (when one is set); writes
     * nothing and starts no Spark.
     */
    public PreparedBroadcast prepare(Configuration conf) {
        JvmAccess.requireOpens();
        return PreparedBroadcast.prepare(this, requireNonNull(conf, "conf is null"));
    }

    /** Writes the broadcast of the only source to the output directory and returns its manifest. */
    public Manifest run(SparkSession spark) {
        return prepare(spark.sparkContext().hadoopConfiguration()).run(spark, Progress.NONE);
    }

    /** Writes the broadcast of every source {@code i} to {@code output/i} (numpy's {@code broadcast_arrays}). */
    public List<Manifest> runAll(SparkSession spark) {
        return prepare(spark.sparkContext().hadoopConfiguration()).runAll(spark, Progress.NONE);
    }

    /**
     * Computes the broadcast of the only source batch by batch and discards it (the null sink): measures the
     * broadcast apart from the disk; the result holds each partition's value checksum. Needs no output.
     */
    public DiscardedBroadcast discard(SparkSession spark) {
        return prepare(spark.sparkContext().hadoopConfiguration()).discard(spark, Progress.NONE, 0);
    }

    /**
     * The broadcast of the only source as rows {@code index bigint, tensor array<type>}, as the files name them; writes
     * nothing.
     */
    public Dataset<Row> toDataset(SparkSession spark) {
        return prepare(spark.sparkContext().hadoopConfiguration()).toDataset(spark, 0);
    }

    /** The broadcast of source {@code input} as rows; writes nothing. */
    public Dataset<Row> toDataset(SparkSession spark, int input) {
        return prepare(spark.sparkContext().hadoopConfiguration()).toDataset(spark, input);
    }

    /**
     * Expands the tensor column {@code column} of {@code data} row by row, numpy-style or by any dialect's rule
     * applied to one row (the dataset's rows are the batch dim, kept): each row, an array of {@code rowShape}'s
     * elements in row-major order, becomes an array of the target's. Nothing runs until the result is used; write it
     * with {@code result.write().parquet(...)}.
     *
     * <pre>{@code
     * // user embeddings [N,1,64] -> [N,8,64]
     * Dataset<Row> expanded = TensorBroadcast.expandColumn(users, "embedding", Shape.of(1, 64),
     *         TargetShape.of(8, 64), Dialect.NUMPY);
     * }</pre>
     */
    public static Dataset<Row> expandColumn(
            Dataset<Row> data, String column, Shape rowShape, TargetShape target, Dialect dialect) {
        return expandColumn(
                data,
                column,
                BroadcastRequest.builder(dialect).input(rowShape).target(target).build());
    }

    /** As above, with a request for one row carrying any of the dialect's arguments (mode, axes). */
    public static Dataset<Row> expandColumn(Dataset<Row> data, String column, BroadcastRequest rowRequest) {
        return ColumnExpansion.expand(data, column, rowRequest.plan());
    }

    List<Source> sources() {
        return sources;
    }

    Dialect dialect() {
        return arguments.dialect();
    }

    /** The dialect and the request's arguments besides the inputs. */
    DialectArguments arguments() {
        return arguments;
    }

    Optional<String> output() {
        return Optional.ofNullable(output);
    }

    /** How the files are written: format, codec and level, row-group size, encoding. */
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

    ArrowSourceOptions arrowOptions() {
        return arrowOptions;
    }

    SourceLimits sourceLimits() {
        return sourceLimits;
    }

    Optional<Shape> rowShape() {
        return Optional.ofNullable(rowShape);
    }

    long shipThreshold() {
        return shipThreshold;
    }

    /** Which of a dataset input's other columns are written next to its rows. */
    public KeepColumns keep() {
        return keep;
    }

    /** The keys whose values name the output's {@code key=value} directories, outermost first; none by default. */
    public List<String> partitionBy() {
        return partitionBy;
    }

    /** A source: a location to read, or a tensor already in memory. */
    record Source(String location, SourceTensor tensor) {
        String name() {
            return location != null ? location : IN_MEMORY;
        }
    }

    /** Builds a {@link TensorBroadcast}: its sources, dialect arguments, output and how to write it. */
    public static final class Builder extends RequestBuilder<Builder> {
        private final List<Source> sources = new ArrayList<>();
        private SourceLimits sourceLimits = SourceLimits.defaults();
        private KeepColumns keep = KeepColumns.all();
        private List<String> partitionBy = List.of();

        private Builder() {}

        /**
         * A {@code .npy} or Arrow IPC file, or a directory of Arrow IPC or Parquet files with one tensor row per table
         * row (a dataset): a local path or any Hadoop URI; repeat for several inputs.
         */
        public Builder source(String location) {
            sources.add(new Source(requireNonNull(location, "location is null"), null));
            return this;
        }

        /** A source already in memory; repeat for several inputs. */
        public Builder source(SourceTensor tensor) {
            sources.add(new Source(null, requireNonNull(tensor, "tensor is null")));
            return this;
        }

        /** The limits a source file is read within (its size on the heap); the defaults otherwise. */
        public Builder sourceLimits(SourceLimits limits) {
            this.sourceLimits = requireNonNull(limits, "limits is null");
            return this;
        }

        /**
         * Which of a dataset input's other columns to write next to the expanded rows, with their names and types,
         * row for row: all of them by default, as Spark's {@code withColumn} keeps a table's columns.
         */
        public Builder keep(KeepColumns columns) {
            this.keep = requireNonNull(columns, "columns is null");
            return this;
        }

        /**
         * Writes the output in Spark's {@code partitionBy} layout: each file under the {@code key=value/}
         * directories of its rows' values of {@code keys}, outermost first. The keys are partition keys of the
         * dataset input ({@code key=value} directories) that the output keeps; they leave the files for the paths.
         * None (the default) writes every file at the top.
         */
        public Builder partitionBy(String... keys) {
            List<String> given = List.of(requireNonNull(keys, "keys is null"));
            for (int i = 0; i < given.size(); i++) {
                String key = given.get(i);
                if (key.isBlank() || given.subList(0, i).contains(key)) {
                    throw new InvalidRequestException("Cannot partition by '" + String.join(",", given) + "': "
                            + (key.isBlank() ? "a key is empty" : "key '" + key + "' is given twice")
                            + "; give each partition key once, such as "
                            + Param.PARTITION_BY.given("\"day\"", "day"));
                }
            }
            this.partitionBy = given;
            return this;
        }

        /** The request, checked: a source, a dialect, at most one of partition size and count. */
        public TensorBroadcast build() {
            if (sources.isEmpty()) {
                throw new InvalidRequestException(
                        "Cannot build a broadcast without a source: give an input file or" + " a tensor");
            }
            if (!arguments.hasDialect()) {
                throw new InvalidRequestException("Cannot build a broadcast without a dialect: expected "
                        + EnumNames.accepted(Dialect.values(), Dialect::dialectName));
            }
            Partitioning partitioning = partitioning();
            WriteSpec spec = write.build();
            if (spec.format().filter(OutputFormat::oneFile).isPresent()) {
                throw new InvalidRequestException("Cannot write a broadcast as one .npy: it writes a dataset; give "
                        + Param.FORMAT.given("OutputFormat.ARROW or PARQUET", "arrow or parquet"));
            }
            spec.format().flatMap(OutputFormat::array).ifPresent(array -> requireArrayOutputFits(array.name()));
            return new TensorBroadcast(this, partitioning, spec.withDefault(OutputFormat.ARROW));
        }

        /** An array is one chunk grid: it has no rows to partition by. */
        private void requireArrayOutputFits(String formatName) {
            if (!partitionBy.isEmpty()) {
                // one N-d array has no rows to file under key=value directories
                throw new InvalidRequestException("Cannot partition a " + formatName + " array by "
                        + String.join(",", partitionBy) + ": an array is one chunk grid, not files under key=value"
                        + " directories; give "
                        + Param.FORMAT.given("OutputFormat.ARROW or PARQUET", "arrow or parquet") + ", or leave out "
                        + Param.PARTITION_BY.named());
            }
        }
    }
}
