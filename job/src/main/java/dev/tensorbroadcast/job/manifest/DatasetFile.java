package dev.tensorbroadcast.job.manifest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One committed output file: its path relative to the dataset directory, the rows it holds, its size and CRC-32C
 * checksum, the executor that wrote it, and what it read of the source.
 */
public record DatasetFile(
        @JsonProperty("path") String path,
        @JsonProperty("partition") long partition,
        @JsonProperty("first_row") long firstRow,
        @JsonProperty("rows") long rows,
        @JsonProperty("bytes") long bytes,
        @JsonProperty("crc32c") String crc32c,
        @JsonProperty("executor_id") String executorId,
        @JsonProperty("host") String host,
        @JsonProperty("source_read") SourceRead sourceRead) {
    public DatasetFile {
        requireNonNull(path, "path is null");
        requireNonNull(crc32c, "crc32c is null");
        requireNonNull(executorId, "executorId is null");
        requireNonNull(host, "host is null");
        requireNonNull(sourceRead, "sourceRead is null");
        ManifestPaths.requireInside(path);
        if (partition < 0 || firstRow < 0 || rows < 0 || bytes < 0) {
            throw new ManifestException(
                    "Cannot read manifest entry " + path + ": negative partition, row or byte" + " count");
        }
        if (!crc32c.matches("[0-9a-f]{8}")) {
            throw new ManifestException(
                    "Cannot read manifest entry " + path + ": crc32c '" + crc32c + "' is not 8 lowercase hex digits");
        }
    }

    /** The row after the last one: refused when it overflows, as only a forged manifest makes it. */
    public long endRow() {
        try {
            return Math.addExact(firstRow, rows);
        } catch (ArithmeticException e) {
            throw new ManifestException(
                    "Cannot read manifest entry " + path + ": its rows end beyond row " + Long.MAX_VALUE);
        }
    }
}
