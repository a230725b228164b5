package dev.tensorbroadcast.job.dataset;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.ElementBatch;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import java.io.IOException;

/**
 * A file's batches, checked to hold exactly the rows its manifest entry lists, in order: the one place a batch's
 * rows are checked against the manifest, whatever the format. Batches without rows are skipped.
 */
final class ListedRows implements DatasetFileReader {
    private final DatasetFileReader reader;
    private final DatasetFile file;
    private long nextRow;

    ListedRows(DatasetFileReader reader, DatasetFile file) {
        this.reader = requireNonNull(reader, "reader is null");
        this.file = requireNonNull(file, "file is null");
        this.nextRow = file.firstRow();
    }

    @Override
    public ElementBatch next() throws IOException {
        ElementBatch batch = reader.next();
        while (batch != null && batch.rows() == 0) {
            batch = reader.next();
        }
        if (batch == null) {
            if (nextRow != file.endRow()) {
                throw new IOException("it holds rows " + file.firstRow() + ".." + nextRow + " (exclusive), the"
                        + " manifest says " + file.firstRow() + ".." + file.endRow());
            }
            return null;
        }
        if (batch.firstRow() != nextRow) {
            throw new IOException("a batch starts at row " + batch.firstRow() + ", expected row " + nextRow);
        }
        long endRow = batch.firstRow() + batch.rows();
        if (endRow > file.endRow()) {
            throw new IOException(
                    "a batch ends at row " + endRow + ", after the manifest's last row " + (file.endRow() - 1));
        }
        nextRow = endRow;
        return batch;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
