package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.SourceRows;
import java.io.Serializable;
import java.util.List;

/**
 * One file of a dataset, as its footer describes it: where its rows lie in the dataset and the chunks they are
 * stored in. Nothing of its data has been read.
 *
 * @param path the file's qualified Hadoop path
 * @param format how it is stored, told by its magic bytes
 * @param firstRow the dataset row of its first row
 * @param fileBytes the file's length
 * @param chunks its record batches or row groups, in order
 * @param partition the values of its Hive partition keys ({@code key=value} directories above it), in the dataset's
 *     {@link TensorDataset#partitionKeys} order, null for the default partition; empty when it is not partitioned
 */
public record DatasetPart(
        String path,
        DatasetFileFormat format,
        long firstRow,
        long fileBytes,
        List<DatasetChunk> chunks,
        List<String> partition)
        implements Serializable {
    /** A file of a dataset without partitions. */
    public DatasetPart(
            String path, DatasetFileFormat format, long firstRow, long fileBytes, List<DatasetChunk> chunks) {
        this(path, format, firstRow, fileBytes, chunks, List.of());
    }

    public DatasetPart {
        requireNonNull(path, "path is null");
        requireNonNull(format, "format is null");
        chunks = List.copyOf(chunks);
        // null values stand for the default partition, which List.copyOf refuses
        partition = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(partition));
        if (firstRow < 0 || fileBytes < 0) {
            throw new IllegalArgumentException("negative first row or length in " + path);
        }
    }

    public long rows() {
        long rows = 0;
        for (DatasetChunk chunk : chunks) {
            rows += chunk.rows();
        }
        return rows;
    }

    public long endRow() {
        return firstRow + rows();
    }

    /** The dataset rows this file holds. */
    public SourceRows datasetRows() {
        return new SourceRows(firstRow, endRow());
    }

    /** The bytes of the chunks that hold any of the dataset rows {@code wanted}: what reading them costs. */
    public long bytesToRead(SourceRows wanted) {
        long bytes = 0;
        long start = firstRow;
        for (DatasetChunk chunk : chunks) {
            long end = start + chunk.rows();
            if (end > wanted.first() && start < wanted.end()) {
                bytes += chunk.bytes();
            }
            start = end;
        }
        return bytes;
    }

    /** The file's name, the last part of its path, for messages. */
    public String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
