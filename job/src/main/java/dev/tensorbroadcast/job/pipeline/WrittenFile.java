package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import org.apache.spark.internal.io.FileCommitProtocol.TaskCommitMessage;

/** What a task reports about the file it wrote and committed and the source it read, for the commit and manifest. */
record WrittenFile(
        String name,
        long partition,
        long firstRow,
        long rows,
        long bytes,
        String crc32c,
        String executorId,
        String host,
        long sourceFirstRow,
        long sourceRows,
        long sourceBytesRead,
        TaskCommitMessage commitMessage)
        implements Serializable {
    WrittenFile {
        requireNonNull(name, "name is null");
        requireNonNull(crc32c, "crc32c is null");
        requireNonNull(executorId, "executorId is null");
        requireNonNull(host, "host is null");
        requireNonNull(commitMessage, "commitMessage is null");
    }
}
