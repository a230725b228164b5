package dev.tensorbroadcast.arrowio.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.SliceBuffer;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads a range of a dataset's rows onto the heap: only the files, and within them the record batches or row groups,
 * that hold them. The bytes read are counted as Spark counts its own input: by the Hadoop file system statistics
 * of the reading thread.
 */
public final class DatasetSlices {
    private DatasetSlices() {}

    public static SourceSlice read(TensorDataset dataset, SourceRows rows, Configuration conf) {
        requireNonNull(dataset, "dataset is null");
        requireNonNull(rows, "rows is null");
        if (rows.end() > dataset.rows()) {
            throw new IndexOutOfBoundsException("rows " + rows + " outside the dataset's " + dataset.rows());
        }
        long before = threadBytesRead();
        SliceBuffer out = new SliceBuffer(dataset.location(), dataset.dtype(), dataset.rowShape(), rows.count());
        for (DatasetPart part : dataset.partsFor(rows)) {
            long from = Math.max(rows.first(), part.firstRow()) - part.firstRow();
            long to = Math.min(rows.end(), part.endRow()) - part.firstRow();
            long outRow = part.firstRow() + from - rows.first();
            try {
                Path path = new Path(part.path());
                FileSystem fileSystem = path.getFileSystem(conf);
                part.format().readRows(fileSystem, part, dataset, from, to, out, outRow);
            } catch (SourceFormatException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                throw new SourceFormatException(
                        part.path(),
                        "rows " + from + ".." + (to - 1) + " cannot be read: "
                                + String.valueOf(e.getMessage())
                                        .lines()
                                        .findFirst()
                                        .orElse(""),
                        e);
            }
        }
        return new SourceSlice(rows, out.toTensor(), threadBytesRead() - before);
    }

    /** Bytes this thread has read through every Hadoop file system, the counter behind Spark's input metrics. */
    private static long threadBytesRead() {
        long bytes = 0;
        for (FileSystem.Statistics statistics : FileSystem.getAllStatistics()) {
            bytes += statistics.getThreadStatistics().getBytesRead();
        }
        return bytes;
    }
}
