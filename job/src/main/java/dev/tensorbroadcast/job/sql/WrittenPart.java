package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * One task's part file, not yet in place: where it was written, the rows it holds, its size and CRC-32C, and where it
 * was written (for the manifest).
 */
@SuppressWarnings("ArrayRecordComponent") // a task's report to the driver, never compared
record WrittenPart(
        String temporary,
        String extension,
        long firstRow,
        long rows,
        long[] rowShape,
        long bytes,
        String crc32c,
        String executorId,
        String host)
        implements WriterCommitMessage {
    WrittenPart {
        requireNonNull(temporary, "temporary is null");
        requireNonNull(extension, "extension is null");
        requireNonNull(rowShape, "rowShape is null");
        requireNonNull(crc32c, "crc32c is null");
        requireNonNull(executorId, "executorId is null");
        requireNonNull(host, "host is null");
    }
}
