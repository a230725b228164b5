package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.connector.write.WriterCommitMessage;

/**
 * One task's output, not yet in place: where it was written (a part file, or the directory of an array's objects),
 * the rows it holds, each object's size and CRC-32C, and where it was written (for the manifest).
 *
 * @param objects the part file (key "") or the array's objects by their keys ({@code c/0/0}), in the order written
 */
@SuppressWarnings("ArrayRecordComponent") // a task's report to the driver, never compared
record WrittenPart(
        String temporary,
        String extension,
        long firstRow,
        long rows,
        long[] rowShape,
        List<WrittenObject> objects,
        String executorId,
        String host)
        implements WriterCommitMessage {
    WrittenPart {
        requireNonNull(temporary, "temporary is null");
        requireNonNull(extension, "extension is null");
        requireNonNull(rowShape, "rowShape is null");
        objects = List.copyOf(requireNonNull(objects, "objects is null"));
        requireNonNull(executorId, "executorId is null");
        requireNonNull(host, "host is null");
    }

    /** One object a task wrote: its key under the task's directory ("" for a part file), its size and CRC-32C. */
    record WrittenObject(String key, long bytes, String crc32c) implements Serializable {
        WrittenObject {
            requireNonNull(key, "key is null");
            requireNonNull(crc32c, "crc32c is null");
        }
    }
}
