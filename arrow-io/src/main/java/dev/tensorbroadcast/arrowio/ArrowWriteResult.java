package dev.tensorbroadcast.arrowio;

/** What one Arrow IPC file holds: rows, bytes on disk and record batches. */
public record ArrowWriteResult(long rows, long bytes, int batches) {
    public ArrowWriteResult {
        if (rows < 0 || bytes < 0 || batches < 0) {
            throw new IllegalArgumentException("negative count in " + rows + " rows, " + bytes + " bytes, " + batches
                    + " batches");
        }
    }
}
