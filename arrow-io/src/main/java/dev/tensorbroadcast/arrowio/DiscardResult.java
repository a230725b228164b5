package dev.tensorbroadcast.arrowio;

/**
 * What the null sink computed for one partition: its rows, the bytes of values filled, the batches, and the
 * CRC-32C of those value bytes in order (see {@link DiscardingTensorWriter}).
 */
public record DiscardResult(long rows, long valueBytes, int batches, long crc32c) {
    public DiscardResult {
        if (rows < 0 || valueBytes < 0 || batches < 0) {
            throw new IllegalArgumentException("Cannot report a discarded partition of " + rows + " rows, " + valueBytes
                    + " bytes in " + batches + " batches: counts must not be negative");
        }
    }
}
