package dev.tensorbroadcast.job;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import java.util.OptionalLong;

/**
 * The core of {@link TensorBroadcast.Builder} and {@link TensorReduce.Builder}: besides the rule
 * ({@link DialectBuilder}) and the write ({@link WriteBuilder}), both take where the result goes, how a dataset's
 * tensor is read (column, row shape, ship threshold) and how the work is cut (a partition size or a count), with the
 * same checks in the same words. Each builder adds what it alone takes: a broadcast its sources, a reduce its gradient
 * and the forward inputs.
 *
 * <p>Package-private, and its setters not {@code final}: javac makes a public method of a package-private class
 * reachable through the public builder by a public bridge in the builder, which it can add only for a method it may
 * override; without the bridge a reflective caller (py4j, a scripting language) could not call the setter.
 *
 * @param <B> the builder, returned by every setter for chaining
 */
abstract class RequestBuilder<B extends RequestBuilder<B>> extends WriteBuilder<B> {
    String output;
    String column;
    Shape rowShape;
    Long partitionBytes;
    Long partitions;
    long shipThreshold = TensorBroadcast.DEFAULT_SHIP_THRESHOLD;

    RequestBuilder() {}

    /**
     * Where the result goes: a dataset directory (a local path or any Hadoop URI), or for a reduce also a {@code .npy}
     * path on the driver's disk. A reduce needs one; a broadcast needs one to {@code run}, not to be discarded or
     * turned into rows.
     */
    public B output(String location) {
        this.output = requireNonNull(location, "location is null");
        return self();
    }

    /** The Arrow column that holds the tensor, when a file or dataset (a source, a gradient) has several. */
    public B column(String name) {
        this.column = requireNonNull(name, "name is null");
        return self();
    }

    /** The shape of a row of a dataset (source or gradient) whose column is a list of numbers ({@code --row-shape}). */
    public B rowShape(Shape shape) {
        this.rowShape = requireNonNull(shape, "shape is null");
        return self();
    }

    /**
     * The output's file format ({@code --format}): Arrow IPC by default (a reduce to a path ending in {@code .npy}
     * writes that {@code .npy} unless given one).
     */
    public B format(OutputFormat format) {
        write.format(format);
        return self();
    }

    /**
     * Target bytes per task, at least 1; the default is 128 MiB. A broadcast writes about this many bytes per
     * partition (and file); a reduce's summing tasks each read about this many bytes of the gradient.
     */
    public B partitionBytes(long bytes) {
        if (bytes <= 0) {
            throw new InvalidRequestException("Cannot use partition size " + bytes + ": it must be at least 1 byte");
        }
        this.partitionBytes = bytes;
        return self();
    }

    /** An exact task count instead of a size, from 1 to {@link Integer#MAX_VALUE}; fewer when there are fewer rows. */
    public B partitions(long count) {
        if (count <= 0 || count > Integer.MAX_VALUE) {
            throw new InvalidRequestException(
                    "Cannot use " + count + " partitions: the count must be from 1 to " + Integer.MAX_VALUE);
        }
        this.partitions = count;
        return self();
    }

    /**
     * A dataset source or gradient of at most this many bytes of values is read by the driver and shipped whole to
     * every task; a larger one is read by the tasks, each only the rows it needs. 64 MiB by default.
     */
    public B shipThreshold(long bytes) {
        if (bytes < 0) {
            throw new InvalidRequestException("Cannot use ship threshold " + bytes + ": it must be 0 bytes or more");
        }
        this.shipThreshold = bytes;
        return self();
    }

    /** The partition size or count given, checked against each other. */
    final Partitioning partitioning() {
        return new Partitioning(
                partitionBytes == null ? OptionalLong.empty() : OptionalLong.of(partitionBytes),
                partitions == null ? OptionalLong.empty() : OptionalLong.of(partitions));
    }
}
