package dev.tensorbroadcast.arrowio.source;

import java.util.List;

/**
 * What a dataset file's footer says: its column, whether it has an {@code index} column, its chunks, and the index
 * of its first row (or -1 when it has no index or no rows).
 */
record PartFooter(DatasetColumn column, boolean indexed, List<DatasetChunk> chunks, long firstIndex) {
    long rows() {
        return chunks.stream().mapToLong(DatasetChunk::rows).sum();
    }
}
