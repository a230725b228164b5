package dev.tensorbroadcast.job.manifest;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What the task that wrote a file read of its source: the source rows (entries of its first dim) the file was made
 * from, and the bytes it read from the source's files: 0 when the source came whole in a Spark broadcast variable,
 * the bytes of the record batches or row groups of its slice when the task read the source's files itself.
 */
public record SourceRead(
        @JsonProperty("first_row") long firstRow,
        @JsonProperty("rows") long rows,
        @JsonProperty("bytes_read") long bytesRead) {
    public SourceRead {
        if (firstRow < 0 || rows < 0 || bytesRead < 0) {
            throw new ManifestException("Cannot read a source read of rows " + firstRow + "+" + rows + " and "
                    + bytesRead + " bytes: the counts are 0 or more");
        }
    }
}
