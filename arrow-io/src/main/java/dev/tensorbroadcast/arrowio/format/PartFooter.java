package dev.tensorbroadcast.arrowio.format;

import java.util.List;

/**
 * What a dataset file's footer says: its column, whether it has an {@code index} column, its chunks, the index
 * of its first row (or -1 when it has no index or no rows), its other columns in order, and how many values its
 * first row holds when the column is a list whose length the file does not fix ({@link FirstRowValues#UNKNOWN} when
 * that was not read or could not be told cheaply).
 */
public record PartFooter(
        DatasetColumn column,
        boolean indexed,
        List<DatasetChunk> chunks,
        long firstIndex,
        List<OtherColumn> others,
        long firstRowValues) {
    public long rows() {
        return chunks.stream().mapToLong(DatasetChunk::rows).sum();
    }
}
