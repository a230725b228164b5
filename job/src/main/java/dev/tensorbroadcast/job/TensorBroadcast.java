package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.ArrowTensorFileWriter;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.source.ArrowSourceOptions;
import dev.tensorbroadcast.arrowio.source.SourceLimits;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.spark.ColumnExpansion;
import dev.tensorbroadcast.job.spark.DiscardedDataset;
import dev.tensorbroadcast.job.spark.JobProgress;
import dev.tensorbroadcast.job.spark.OutputCompression;
import dev.tensorbroadcast.job.spark.OutputFormat;
import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.EnumNames;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The entry point for Spark applications: a broadcast request over source tensors (files on any Hadoop file system,
 * or tensors in memory), and where and how to write it.
 *
 * <pre>{@code
 * Manifest written = TensorBroadcast.builder()
 *         .source("hdfs:///data/bias.npy")
 *         .dialect(Dialect.NUMPY)
 *         .shape(1_000_000, 4096)
 *         .output("hdfs:///out/bias")
 *         .format(OutputFormat.PARQUET)
 *         .build()
 *         .run(spark);
 * Dataset<Row> rows = TensorBroadcast.builder().source(tensor).dialect(Dialect.NUMPY).shape(8, 3).build()
 *         .toDataset(spark);
 * }</pre>
 *
 * <p>{@link #prepare} does every check that needs no Spark (reads the sources, plans, checks the output location);
 * {@link #run} and {@link #toDataset} prepare first, so a refused request never starts a Spark job.
 */
public final class TensorBroadcast {
    /** How an in-memory source is named in messages and manifests. */
    public static final String IN_MEMORY = "(in memory)";
    /** Datasets up to this many bytes of values are shipped whole; larger ones are read in slices by the tasks. */
    public static final long DEFAULT_SHIP_THRESHOLD = 64L << 20;
    /** The most bytes a broadcast writes unless told otherwise ({@code --max-output}): one TiB. */
    public static final long DEFAULT_MAX_OUTPUT_BYTES = 1L << 40;
    /** A {@link Builder#maxOutputBytes} that sets no limit ({@code --max-output none}). */
    public static final long NO_OUTPUT_LIMIT = Long.MAX_VALUE;

    /** Bytes of values per Parquet row group or Arrow record batch, unless set. */
    public static final long DEFAULT_ROW_GROUP_BYTES = ArrowTensorFileWriter.DEFAULT_BATCH_BYTES;
    static final long MIN_ROW_GROUP_BYTES = 1L << 20;
    static final long MAX_ROW_GROUP_BYTES = 1L << 30;

    private final List<Source> sources;
    private final Dialect dialect;
    private final TargetShape shape;
    private final BroadcastMode mode;
    private final List<Long> axesMapping;
    private final List<Long> broadcastAxes;
    private final Long axis;
    private final String output;
    private final OutputFormat format;
    private final OutputCompression compression;
    private final int compressionLevel;
    private final long rowGroupBytes;
    private final boolean byteStreamSplit;
    private final Long partitionBytes;
    private final Long partitions;
    private final boolean overwrite;
    private final ArrowSourceOptions arrowOptions;
    private final SourceLimits sourceLimits;
    private final Shape rowShape;
    private final long shipThreshold;
    private final long maxOutputBytes;
    private final boolean checkFreeSpace;
    private final KeepColumns keep;

    private TensorBroadcast(Builder builder) {
        this.sources = List.copyOf(builder.sources);
        this.dialect = builder.dialect;
        this.shape = builder.shape;
        this.mode = builder.mode;
        this.axesMapping = builder.axesMapping;
        this.broadcastAxes = builder.broadcastAxes;
        this.axis = builder.axis;
        this.output = builder.output;
        this.format = builder.format;
        this.compression = builder.compression;
        this.compressionLevel = builder.compressionLevel;
        this.rowGroupBytes = builder.rowGroupBytes;
        this.byteStreamSplit = builder.byteStreamSplit;
        this.partitionBytes = builder.partitionBytes;
        this.partitions = builder.partitions;
        this.overwrite = builder.overwrite;
        this.arrowOptions = builder.column == null ? ArrowSourceOptions.defaults()
                : ArrowSourceOptions.defaults().withColumn(builder.column);
        this.sourceLimits = builder.sourceLimits;
        this.rowShape = builder.rowShape;
        this.shipThreshold = builder.shipThreshold;
        this.maxOutputBytes = builder.maxOutputBytes;
        this.checkFreeSpace = builder.checkFreeSpace;
        this.keep = builder.keep;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads the sources through {@code conf}, plans, and checks the output location (when one is set); writes
     * nothing and starts no Spark.
     */
    public PreparedBroadcast prepare(Configuration conf) {
        return PreparedBroadcast.prepare(this, requireNonNull(conf, "conf is null"));
    }

    /** Writes the broadcast of the only source to the output directory and returns its manifest. */
    public Manifest run(SparkSession spark) {
        return prepare(spark.sparkContext().hadoopConfiguration()).run(spark, JobProgress.NONE);
    }

    /** Writes the broadcast of every source {@code i} to {@code output/i} (numpy's {@code broadcast_arrays}). */
    public List<Manifest> runAll(SparkSession spark) {
        return prepare(spark.sparkContext().hadoopConfiguration()).runAll(spark, JobProgress.NONE);
    }

    /**
     * Computes the broadcast of the only source batch by batch and discards it (the null sink): measures the
     * broadcast apart from the disk; the result holds each partition's value checksum. Needs no output.
     */
    public DiscardedDataset discard(SparkSession spark) {
        return prepare(spark.sparkContext().hadoopConfiguration()).discard(spark, JobProgress.NONE, 0);
    }

    /** The broadcast of the only source as rows {@code index bigint, values array<type>}; writes nothing. */
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
    public static Dataset<Row> expandColumn(Dataset<Row> data, String column, Shape rowShape, TargetShape target,
            Dialect dialect) {
        return expandColumn(data, column, BroadcastRequest.builder(dialect).input(rowShape).target(target).build());
    }

    /** As above, with a request for one row carrying any of the dialect's arguments (mode, axes). */
    public static Dataset<Row> expandColumn(Dataset<Row> data, String column, BroadcastRequest rowRequest) {
        return ColumnExpansion.expand(data, column, rowRequest.plan());
    }

    List<Source> sources() {
        return sources;
    }

    Dialect dialect() {
        return dialect;
    }

    Optional<TargetShape> shape() {
        return Optional.ofNullable(shape);
    }

    Optional<BroadcastMode> mode() {
        return Optional.ofNullable(mode);
    }

    Optional<List<Long>> axesMapping() {
        return Optional.ofNullable(axesMapping);
    }

    Optional<List<Long>> broadcastAxes() {
        return Optional.ofNullable(broadcastAxes);
    }

    OptionalLong axis() {
        return axis == null ? OptionalLong.empty() : OptionalLong.of(axis);
    }

    Optional<String> output() {
        return Optional.ofNullable(output);
    }

    OutputFormat format() {
        return format;
    }

    OutputCompression compression() {
        return compression;
    }

    /** The zstd level, or 0 for the codec's default. */
    int compressionLevel() {
        return compressionLevel;
    }

    /** Bytes of values per Parquet row group and Arrow record batch. */
    long rowGroupBytes() {
        return rowGroupBytes;
    }

    /** Whether Parquet float values are written BYTE_STREAM_SPLIT. */
    boolean byteStreamSplit() {
        return byteStreamSplit;
    }

    Optional<Long> partitionBytes() {
        return Optional.ofNullable(partitionBytes);
    }

    Optional<Long> partitions() {
        return Optional.ofNullable(partitions);
    }

    boolean overwrite() {
        return overwrite;
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

    long maxOutputBytes() {
        return maxOutputBytes;
    }

    boolean checkFreeSpace() {
        return checkFreeSpace;
    }

    /** Which of a dataset input's other columns are written next to its rows. */
    public KeepColumns keep() {
        return keep;
    }

    /** A source: a location to read, or a tensor already in memory. */
    record Source(String location, SourceTensor tensor) {
        String name() {
            return location != null ? location : IN_MEMORY;
        }
    }

    public static final class Builder {
        private final List<Source> sources = new ArrayList<>();
        private Dialect dialect;
        private TargetShape shape;
        private BroadcastMode mode;
        private List<Long> axesMapping;
        private List<Long> broadcastAxes;
        private Long axis;
        private String output;
        private OutputFormat format = OutputFormat.ARROW;
        private OutputCompression compression = OutputCompression.NONE;
        private int compressionLevel;
        private long rowGroupBytes = DEFAULT_ROW_GROUP_BYTES;
        private boolean byteStreamSplit;
        private Long partitionBytes;
        private Long partitions;
        private boolean overwrite;
        private String column;
        private SourceLimits sourceLimits = SourceLimits.defaults();
        private Shape rowShape;
        private long shipThreshold = DEFAULT_SHIP_THRESHOLD;
        private long maxOutputBytes = DEFAULT_MAX_OUTPUT_BYTES;
        private boolean checkFreeSpace = true;
        private KeepColumns keep = KeepColumns.all();

        private Builder() {}

        /**
         * A {@code .npy} or Arrow IPC file, or a directory of Arrow IPC or Parquet files with one tensor row per table
         * row (a dataset): a local path or any Hadoop URI; repeat for several inputs.
         */
        public Builder source(String location) {
            sources.add(new Source(requireNonNull(location, "location is null"), null));
            return this;
        }

        public Builder source(SourceTensor tensor) {
            sources.add(new Source(null, requireNonNull(tensor, "tensor is null")));
            return this;
        }

        /** The column of Arrow IPC sources that holds the tensor. */
        public Builder column(String name) {
            this.column = requireNonNull(name, "name is null");
            return this;
        }

        public Builder dialect(Dialect dialect) {
            this.dialect = requireNonNull(dialect, "dialect is null");
            return this;
        }

        public Builder shape(TargetShape shape) {
            this.shape = requireNonNull(shape, "shape is null");
            return this;
        }

        public Builder shape(long... dims) {
            return shape(TargetShape.of(dims));
        }

        public Builder mode(BroadcastMode mode) {
            this.mode = requireNonNull(mode, "mode is null");
            return this;
        }

        public Builder axesMapping(List<Long> axes) {
            this.axesMapping = List.copyOf(axes);
            return this;
        }

        public Builder broadcastAxes(List<Long> axes) {
            this.broadcastAxes = List.copyOf(axes);
            return this;
        }

        public Builder axis(long axis) {
            this.axis = axis;
            return this;
        }

        /** The dataset directory: a local path or any Hadoop URI. */
        public Builder output(String location) {
            this.output = requireNonNull(location, "location is null");
            return this;
        }

        public Builder format(OutputFormat format) {
            this.format = requireNonNull(format, "format is null");
            return this;
        }

        /**
         * The level of a zstd output, 1 (fastest) to 22 (smallest); 0, the default, is zstd's own default (3). Set
         * it after {@link #compression}, which it must be zstd for.
         */
        public Builder compressionLevel(int level) {
            if (level != 0 && (compression != OutputCompression.ZSTD || level < 1 || level > 22)) {
                throw new InvalidRequestException("Cannot use compression '" + compression + ":" + level + "': "
                        + (compression == OutputCompression.ZSTD ? "zstd levels go from 1 (fastest) to 22 (smallest)"
                        : compression + " takes no level") + "; expected none, lz4, zstd or zstd:1 to zstd:22");
            }
            this.compressionLevel = level;
            return this;
        }

        /**
         * Bytes of values per Parquet row group and per Arrow record batch (at least one row each), 1 MiB to 1 GiB;
         * a task holds one group's buffers.
         */
        public Builder rowGroupBytes(long bytes) {
            if (bytes < MIN_ROW_GROUP_BYTES || bytes > MAX_ROW_GROUP_BYTES) {
                throw new InvalidRequestException("Cannot use row group size " + bytes + " bytes: expected 1m to 1g"
                        + " (each task holds one group's buffers; the default is 32m)");
            }
            this.rowGroupBytes = bytes;
            return this;
        }

        /**
         * Parquet float and double values in BYTE_STREAM_SPLIT rather than PLAIN: the same values, bytes of like
         * significance together, which codecs compress better. Parquet output of float data only.
         */
        public Builder byteStreamSplit(boolean split) {
            this.byteStreamSplit = split;
            return this;
        }

        public Builder compression(OutputCompression compression) {
            this.compressionLevel = 0;
            this.compression = requireNonNull(compression, "compression is null");
            return this;
        }

        /** Target bytes per partition (and file); the default is 128 MiB. */
        public Builder partitionBytes(long bytes) {
            this.partitionBytes = bytes;
            return this;
        }

        /** An exact partition count instead of a size; fewer when the output has fewer rows. */
        public Builder partitions(long count) {
            this.partitions = count;
            return this;
        }

        /** Replace the output if it is an empty directory or a dataset of ours; never anything else. */
        public Builder overwrite(boolean overwrite) {
            this.overwrite = overwrite;
            return this;
        }

        /** The shape of one row of a dataset source whose column is a list of numbers ({@code --row-shape}). */
        public Builder rowShape(Shape shape) {
            this.rowShape = requireNonNull(shape, "shape is null");
            return this;
        }

        /**
         * A dataset source of at most this many bytes of values is read by the driver and shipped whole to every
         * executor; a larger one is read by the tasks, each only the rows its partition needs. 64 MiB by default.
         */
        public Builder shipThreshold(long bytes) {
            if (bytes < 0) {
                throw new InvalidRequestException("Cannot use ship threshold " + bytes + ": it must be 0 bytes or"
                        + " more");
            }
            this.shipThreshold = bytes;
            return this;
        }

        public Builder sourceLimits(SourceLimits limits) {
            this.sourceLimits = requireNonNull(limits, "limits is null");
            return this;
        }

        /**
         * Refuse to write more than {@code bytes} of tensor values ({@code --max-output}); the default is
         * {@link #DEFAULT_MAX_OUTPUT_BYTES}, {@link #NO_OUTPUT_LIMIT} sets none. A typo in a shape must not fill a
         * cluster's storage.
         */
        public Builder maxOutputBytes(long bytes) {
            if (bytes < 0) {
                throw new InvalidRequestException("Cannot limit the output to " + bytes + " bytes: the limit must be"
                        + " 0 or more");
            }
            this.maxOutputBytes = bytes;
            return this;
        }

        /**
         * Whether to refuse an output on a local file system that has less usable space than the output's estimated
         * files (on by default; {@code --ignore-free-space} turns it off, for instance when compression will shrink
         * the files). Other file systems report no free space that a job could rely on, so they are not checked.
         */
        public Builder checkFreeSpace(boolean check) {
            this.checkFreeSpace = check;
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

        public TensorBroadcast build() {
            if (sources.isEmpty()) {
                throw new InvalidRequestException("Cannot build a broadcast without a source: give an input file or"
                        + " a tensor");
            }
            if (dialect == null) {
                throw new InvalidRequestException("Cannot build a broadcast without a dialect: expected "
                        + EnumNames.accepted(Dialect.values(), Dialect::dialectName));
            }
            if (partitionBytes != null && partitions != null) {
                throw new InvalidRequestException("Cannot use a partition size with a partition count: they are"
                        + " mutually exclusive (give a size per partition or a partition count)");
            }
            return new TensorBroadcast(this);
        }
    }
}
