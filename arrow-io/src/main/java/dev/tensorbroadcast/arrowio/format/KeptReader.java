package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads the kept columns of a range of a dataset's rows, each file through its format's reader (which reads only
 * those columns' chunks of a Parquet file, the record batches that hold the rows of an Arrow IPC file).
 */
public final class KeptReader {
    private KeptReader() {}

    public static KeptRows read(TensorDataset dataset, SourceRows rows, List<KeptColumn> columns, Configuration conf) {
        requireNonNull(dataset, "dataset is null");
        requireNonNull(columns, "columns is null");
        if (rows.end() > dataset.rows()) {
            throw new IndexOutOfBoundsException("rows " + rows + " outside the dataset's " + dataset.rows());
        }
        List<KeptColumn> inFiles = columns.stream()
                .filter(column -> !dataset.partitionKeys().contains(column.name()))
                .toList();
        if (inFiles.size() < columns.size()) {
            return withPartitions(dataset, rows, columns, inFiles, conf);
        }
        KeptRows kept = KeptRows.allocate(columns, rows);
        try {
            for (DatasetPart part : dataset.partsFor(rows)) {
                long from = Math.max(rows.first(), part.firstRow()) - part.firstRow();
                long to = Math.min(rows.end(), part.endRow()) - part.firstRow();
                int at = (int) (part.firstRow() + from - rows.first());
                try {
                    Path path = new Path(part.path());
                    FileSystem fileSystem = path.getFileSystem(conf);
                    part.format().readKept(fileSystem, part, kept, from, to, at);
                } catch (SourceFormatException e) {
                    throw e;
                } catch (IOException | RuntimeException e) {
                    throw new SourceFormatException(
                            part.path(),
                            "the kept columns of rows " + from + ".." + (to - 1) + " cannot be read: "
                                    + String.valueOf(e.getMessage())
                                            .lines()
                                            .findFirst()
                                            .orElse(""),
                            e);
                }
            }
            return kept.finish();
        } catch (RuntimeException | Error e) {
            kept.close();
            throw e;
        }
    }

    /**
     * The files' columns read as above, then every column in {@code columns}' order: a file column copied, a
     * partition key's value (the same for all of a file's rows) set row by row.
     */
    private static KeptRows withPartitions(
            TensorDataset dataset,
            SourceRows rows,
            List<KeptColumn> columns,
            List<KeptColumn> inFiles,
            Configuration conf) {
        KeptRows kept = KeptRows.allocate(columns, rows);
        try (KeptRows files = inFiles.isEmpty() ? null : read(dataset, rows, inFiles, conf)) {
            int count = Math.toIntExact(rows.count());
            for (int c = 0; c < columns.size(); c++) {
                KeptColumn column = columns.get(c);
                FieldVector to = kept.vector(c);
                int key = dataset.partitionKeys().indexOf(column.name());
                if (key < 0) {
                    FieldVector from = files.vector(inFiles.indexOf(column));
                    for (int r = 0; r < count; r++) {
                        to.copyFromSafe(r, r, from);
                    }
                    continue;
                }
                for (DatasetPart part : dataset.partsFor(rows)) {
                    long from = Math.max(rows.first(), part.firstRow()) - rows.first();
                    long end = Math.min(rows.end(), part.endRow()) - rows.first();
                    PartitionValues.fill(to, column, part.partition().get(key), (int) from, (int) end);
                }
            }
            return kept.finish();
        } catch (RuntimeException | Error e) {
            kept.close();
            throw e;
        }
    }

    public static SourceFormatException missing(DatasetPart part, KeptColumn column) {
        return new SourceFormatException(
                part.path(),
                "it has no column '" + column.name() + "' of " + column.typeName()
                        + " to keep, which the dataset's files had when it was opened");
    }
}
