package dev.tensorbroadcast.arrowio;

/**
 * What one written file holds: rows, bytes on disk and record batches (row groups for Parquet), and how many
 * compressions of the tensor an earlier batch's (or page's) compressed bytes saved.
 */
public record ArrowWriteResult(long rows, long bytes, int batches, long reused) {
    public ArrowWriteResult {
        if (rows < 0 || bytes < 0 || batches < 0 || reused < 0) {
            throw new IllegalArgumentException("negative count in " + rows + " rows, " + bytes + " bytes, " + batches
                    + " batches, " + reused + " reused");
        }
    }

    public ArrowWriteResult(long rows, long bytes, int batches) {
        this(rows, bytes, batches, 0);
    }
}
