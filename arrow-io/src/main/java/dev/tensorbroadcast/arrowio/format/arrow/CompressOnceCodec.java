package dev.tensorbroadcast.arrowio.format.arrow;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.RepeatedRows;
import dev.tensorbroadcast.arrowio.TensorBatch;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;

/**
 * Arrow IPC body compression that compresses a batch's tensor buffers once and hands the same compressed buffers to
 * every later batch of the file that the copy program proves holds the same values ({@link RepeatedRows}). The
 * codecs are deterministic, so the file is byte for byte what compressing every batch would give. The {@code index}
 * and kept columns differ from batch to batch and are compressed as always.
 *
 * <p>Arrow's unloader hands every buffer to {@link #compress} in schema order; the tensor's buffers are told apart
 * by their addresses, which a {@link TensorBatch} keeps for the life of the file.
 */
final class CompressOnceCodec implements CompressionCodec, TensorBatch.Repeats, AutoCloseable {
    /** A compressed buffer and the length of the buffer it was compressed from. */
    private record Compressed(ArrowBuf buffer, long uncompressedBytes) {}

    private final CompressionCodec codec;
    private final TensorBatch batch;
    private final RepeatedRows<Map<Long, Compressed>> repeated;
    /** The tensor buffers' addresses this batch, and what they compress to: found, or being made. */
    private List<Long> tensorAddresses = List.of();

    private Map<Long, Compressed> found;
    private Map<Long, Compressed> making;
    private long makingFirstRow;
    private int makingRows;
    private long reusedBatches;

    private CompressOnceCodec(CompressionCodec codec, TensorBatch batch, long maxBytes) {
        this.codec = requireNonNull(codec, "codec is null");
        this.batch = requireNonNull(batch, "batch is null");
        this.repeated =
                RepeatedRows.of(batch.kernel().program(), batch.rowElements(), 8, maxBytes, CompressOnceCodec::release);
    }

    /** Compresses with {@code codec}, keeping at most {@code maxBytes} of compressed tensor buffers for reuse. */
    static CompressOnceCodec of(CompressionCodec codec, TensorBatch batch, long maxBytes) {
        CompressOnceCodec once = new CompressOnceCodec(codec, batch, maxBytes);
        batch.repeatWith(once);
        return once;
    }

    /** How many batches took their tensor buffers from an earlier batch. */
    long reusedBatches() {
        return reusedBatches;
    }

    @Override
    public boolean before(long firstRow, int rows) {
        keepMade();
        tensorAddresses =
                batch.tensorBuffers().stream().map(ArrowBuf::memoryAddress).toList();
        found = repeated.find(firstRow, rows, 0).orElse(null);
        if (found != null) {
            reusedBatches++;
        } else {
            making = new HashMap<>();
            makingFirstRow = firstRow;
            makingRows = rows;
        }
        return found != null;
    }

    @Override
    public ArrowBuf compress(BufferAllocator allocator, ArrowBuf uncompressed) {
        long address = uncompressed.memoryAddress();
        if (uncompressed.writerIndex() == 0 || !tensorAddresses.contains(address)) {
            return codec.compress(allocator, uncompressed);
        }
        if (found != null) {
            Compressed compressed = found.get(address);
            if (compressed == null || compressed.uncompressedBytes() != uncompressed.writerIndex()) {
                throw new IllegalStateException("Cannot reuse the compressed tensor buffer at " + address + ": the "
                        + "earlier batch's is "
                        + (compressed == null ? "missing" : compressed.uncompressedBytes() + " bytes") + ", this one "
                        + uncompressed.writerIndex() + " bytes");
            }
            // the codec contract: compress releases the buffer it was given
            uncompressed.close();
            compressed.buffer().getReferenceManager().retain();
            return compressed.buffer();
        }
        long bytes = uncompressed.writerIndex();
        ArrowBuf result = codec.compress(allocator, uncompressed);
        if (making != null) {
            making.put(address, new Compressed(kept(allocator, result), bytes));
        }
        return result;
    }

    /**
     * The compressed buffer to keep: itself, or a copy of its bytes when it was allocated for the worst case and
     * holds far less (a repeating batch compresses to a small fraction of its size), so the budget counts real bytes.
     */
    private static ArrowBuf kept(BufferAllocator allocator, ArrowBuf compressed) {
        long length = compressed.writerIndex();
        if (compressed.capacity() <= 2 * length) {
            compressed.getReferenceManager().retain();
            return compressed;
        }
        ArrowBuf copy = allocator.buffer(length);
        copy.setBytes(0, compressed, 0, length);
        copy.writerIndex(length);
        return copy;
    }

    /** Keeps what the last batch's tensor compressed to, now that every buffer of it went through the codec. */
    private void keepMade() {
        if (making == null) {
            return;
        }
        Map<Long, Compressed> made = making;
        making = null;
        if (made.isEmpty()) {
            return;
        }
        long bytes = made.values().stream()
                .mapToLong(compressed -> compressed.buffer().writerIndex())
                .sum();
        repeated.add(makingFirstRow, makingRows, 0, made, bytes);
    }

    private static void release(Map<Long, Compressed> buffers) {
        buffers.values().forEach(compressed -> compressed.buffer().close());
    }

    @Override
    public ArrowBuf decompress(BufferAllocator allocator, ArrowBuf compressed) {
        return codec.decompress(allocator, compressed);
    }

    @Override
    public CompressionUtil.CodecType getCodecType() {
        return codec.getCodecType();
    }

    /** Releases every compressed buffer it kept. */
    @Override
    public void close() {
        try {
            if (making != null) {
                release(making);
                making = null;
            }
        } finally {
            repeated.clear();
        }
    }
}
