package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;
import org.apache.spark.internal.io.FileCommitProtocol.TaskCommitMessage;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * One task's output, committed by the task and not yet by the job: its partition, the rows it holds, each object's
 * name, size and CRC-32C, where it was written (for the manifest), and the task's commit message for the job's commit.
 *
 * @param objects the part file ({@code part-NNNNN} of the partition) or the array's objects by their keys
 *     ({@code c/0/0}), relative to the output, in the order written
 * @param message the task's commit message, or null for a partition of no rows, which committed nothing
 */
@SuppressWarnings("ArrayRecordComponent") // a task's report to the driver, never compared
record WrittenPart(
        int partition,
        String extension,
        long firstRow,
        long rows,
        long[] rowShape,
        List<WrittenObject> objects,
        String executorId,
        String host,
        TaskCommitMessage message)
        implements WriterCommitMessage {
    WrittenPart {
        requireNonNull(extension, "extension is null");
        requireNonNull(rowShape, "rowShape is null");
        objects = List.copyOf(requireNonNull(objects, "objects is null"));
        requireNonNull(executorId, "executorId is null");
        requireNonNull(host, "host is null");
    }

    /** One object a task wrote: its name relative to the output, its size and CRC-32C. */
    record WrittenObject(String key, long bytes, String crc32c) implements Serializable {
        WrittenObject {
            requireNonNull(key, "key is null");
            requireNonNull(crc32c, "crc32c is null");
        }
    }
}
