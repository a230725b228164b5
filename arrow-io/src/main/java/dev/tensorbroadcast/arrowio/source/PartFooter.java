package dev.tensorbroadcast.arrowio.source;

import java.util.List;

/**
 * What a dataset file's footer says: its column, whether it has an {@code index} column, its chunks, the index
 * of its first row (or -1 when it has no index or no rows), and its other columns in order.
 */
record PartFooter(DatasetColumn column, boolean indexed, List<DatasetChunk> chunks, long firstIndex,
        List<OtherColumn> others) {
    long rows() {
        return chunks.stream().mapToLong(DatasetChunk::rows).sum();
    }
}
