package dev.tensorbroadcast.arrowio.format.parquet;

import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;

/**
 * A page's repetition levels, for rows that all have the same pattern ({@link RowLevels}), in the RLE/bit-packing
 * hybrid encoding: as RLE runs replayed per row when the rows have few long runs (a flat row is 2), or bit-packed
 * when that is smaller (nested rows with short innermost lists, where a run per level would cost more than the
 * values). Eight rows always hold a whole number of 8-level groups, so eight rows are packed once and a page is their
 * bytes copied, then a prefix of them for the rest; a writer never packs a level per value.
 */
final class RepetitionLevels {
    /** The v1 data page's length prefix, then at most a 5-byte run header. */
    private static final int PREFIX_BYTES = 4 + 5;
    /** Eight packed rows larger than this are not kept: such rows are RLE runs whatever they cost. */
    private static final long MAX_BLOCK_BYTES = 1 << 20;

    private final RowLevels row;
    private final RleRuns runs;
    private final int bitWidth;
    /** Eight rows' levels bit-packed, LSB first, or null when RLE runs are smaller. */
    private final byte[] block;

    private byte[] bytes = new byte[256];

    RepetitionLevels(RowLevels row) {
        this.row = row;
        this.runs = new RleRuns(row.maxRepetition);
        this.bitWidth = 32 - Integer.numberOfLeadingZeros(row.maxRepetition);
        long valueBytes = (bitWidth + 7L) / 8;
        // an RLE run costs its varint header (1 byte up to length 63) and the value: at least this much per row
        long rleRow = row.runs() * (1 + valueBytes);
        boolean small = row.entries <= MAX_BLOCK_BYTES && row.entries * bitWidth <= MAX_BLOCK_BYTES;
        // a row of one run (one value, or none) merges with the next row's into one run per page: never pack it
        this.block = row.runs() > 1 && small && row.entries * bitWidth < 8 * rleRow ? pack(row, bitWidth) : null;
    }

    /** Whether pages are bit-packed rather than RLE runs. */
    boolean packed() {
        return block != null;
    }

    /**
     * The levels of {@code rows} rows with the 4-byte little-endian length prefix a v1 data page expects; valid until
     * the next call.
     */
    BytesInput encode(int rows) {
        if (block == null) {
            runs.reset();
            for (int i = 0; i < rows; i++) {
                row.addRow(runs);
            }
            return runs.finishWithLength();
        }
        long levels = rows * row.entries;
        long groups = (levels + 7) / 8;
        long body = groups * bitWidth;
        ensure(PREFIX_BYTES + body);
        int size = 4;
        // a bit-packed run: varint of (groups << 1 | 1); parquet readers keep the header in an int
        int header = Math.toIntExact(groups << 1 | 1);
        while ((header & ~0x7F) != 0) {
            bytes[size++] = (byte) ((header & 0x7F) | 0x80);
            header >>>= 7;
        }
        bytes[size++] = (byte) header;
        int whole = rows / 8;
        for (int i = 0; i < whole; i++) {
            System.arraycopy(block, 0, bytes, size, block.length);
            size += block.length;
        }
        long restLevels = levels - whole * 8L * row.entries;
        if (restLevels > 0) {
            int restBytes = (int) ((restLevels + 7) / 8 * bitWidth);
            System.arraycopy(block, 0, bytes, size, restBytes);
            // the last group's padding holds the next row's levels: zero it, as a packer would
            long usedBits = restLevels * bitWidth;
            int end = size + restBytes;
            int firstPadByte = size + (int) (usedBits >>> 3);
            if ((usedBits & 7) != 0) {
                bytes[firstPadByte] &= (byte) ((1 << (usedBits & 7)) - 1);
                firstPadByte++;
            }
            Arrays.fill(bytes, firstPadByte, end, (byte) 0);
            size = end;
        }
        int length = size - 4;
        bytes[0] = (byte) length;
        bytes[1] = (byte) (length >>> 8);
        bytes[2] = (byte) (length >>> 16);
        bytes[3] = (byte) (length >>> 24);
        return BytesInput.from(bytes, 0, size);
    }

    /** Eight rows' levels, {@code bitWidth} bits each from the least significant bit of each byte on. */
    private static byte[] pack(RowLevels row, int bitWidth) {
        byte[] packed = new byte[Math.toIntExact(row.entries * bitWidth)];
        long[] bit = {0};
        RowLevels.Runs sink = (level, count) -> {
            for (long i = 0; i < count; i++) {
                for (int b = 0; b < bitWidth; b++) {
                    if ((level >>> b & 1) != 0) {
                        packed[(int) (bit[0] >>> 3)] |= (byte) (1 << (bit[0] & 7));
                    }
                    bit[0]++;
                }
            }
        };
        for (int i = 0; i < 8; i++) {
            row.addRow(sink);
        }
        return packed;
    }

    private void ensure(long capacity) {
        if (capacity > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.toIntExact(Math.max(capacity, 2L * bytes.length)));
        }
    }
}
