package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.arrowio.format.parquet.HybridLevels;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetLeaf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DataPageHeaderV2;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * How many values the first row of a dataset file's list column holds, read while planning so that a
 * {@code --row-shape} that does not fit the rows is refused before Spark starts, not by a task. It reads little: of
 * a Parquet file the page headers up to the first data page and that page's levels; of an Arrow IPC file the first
 * two offsets of the first record batch that has rows. Whatever it cannot tell cheaply (a first row that goes on
 * past its page, a null first row, an encrypted or oddly encoded page, a page or buffer over {@link #MAX_BYTES})
 * is {@link #UNKNOWN}: the tasks still check every row as they read it.
 */
public final class FirstRowValues {
    public static final long UNKNOWN = -1;
    /** The most bytes read for one page or offsets buffer: a first row is worth one page, not a row group. */
    static final int MAX_BYTES = 16 << 20;
    /** Dictionary or index pages may come before the first data page; more than a few means something odd. */
    private static final int MAX_PAGES = 4;

    private FirstRowValues() {}

    /** The values of the file's first row, from the first row group that has rows. */
    public static long parquet(FileSystem fileSystem, Path path, Iterable<BlockMetaData> groups, ParquetLeaf leaf,
            ParquetReadOptions options) {
        for (BlockMetaData group : groups) {
            if (group.getRowCount() == 0) {
                continue;
            }
            for (ColumnChunkMetaData chunk : group.getColumns()) {
                if (java.util.Arrays.equals(chunk.getPath().toArray(), leaf.descriptor().getPath())) {
                    try (FSDataInputStream in = fileSystem.open(path)) {
                        return chunk.isEncrypted() ? UNKNOWN : firstPage(in, chunk, leaf, options);
                    } catch (IOException | RuntimeException e) {
                        // unreadable here means unreadable to the task too, which says so with the row it reached
                        return UNKNOWN;
                    }
                }
            }
            return UNKNOWN;
        }
        return UNKNOWN;
    }

    private static long firstPage(FSDataInputStream in, ColumnChunkMetaData chunk, ParquetLeaf leaf,
            ParquetReadOptions options) throws IOException {
        in.seek(chunk.getStartingPos());
        for (int page = 0; page < MAX_PAGES; page++) {
            PageHeader header = Util.readPageHeader(in);
            int compressed = header.getCompressed_page_size();
            if (compressed < 0 || compressed > MAX_BYTES) {
                return UNKNOWN;
            }
            if (header.getType() == PageType.DATA_PAGE_V2) {
                // levels come first and are never compressed; a v2 page holds whole rows
                DataPageHeaderV2 v2 = header.getData_page_header_v2();
                int repetitionBytes = v2.getRepetition_levels_byte_length();
                int definitionBytes = v2.getDefinition_levels_byte_length();
                if (repetitionBytes < 0 || definitionBytes < 0 || repetitionBytes + definitionBytes > compressed) {
                    return UNKNOWN;
                }
                ByteBuffer levels = ByteBuffer.wrap(in.readNBytes(repetitionBytes + definitionBytes))
                        .order(ByteOrder.LITTLE_ENDIAN);
                int n = v2.getNum_values();
                int[] repetition = levels(levels.slice(0, repetitionBytes), false, leaf.descriptor()
                        .getMaxRepetitionLevel(), n);
                int[] definition = levels(levels.slice(repetitionBytes, definitionBytes), false, leaf.descriptor()
                        .getMaxDefinitionLevel(), n);
                return count(repetition, definition, n, true, leaf);
            }
            if (header.getType() == PageType.DATA_PAGE) {
                DataPageHeader v1 = header.getData_page_header();
                if (v1.getRepetition_level_encoding() != Encoding.RLE
                        || v1.getDefinition_level_encoding() != Encoding.RLE
                        || header.getUncompressed_page_size() < 0 || header.getUncompressed_page_size() > MAX_BYTES) {
                    return UNKNOWN;
                }
                BytesInput bytes = options.getCodecFactory().getDecompressor(chunk.getCodec())
                        .decompress(BytesInput.from(in.readNBytes(compressed)), header.getUncompressed_page_size());
                ByteBuffer data = ByteBuffer.wrap(bytes.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
                int n = v1.getNum_values();
                int[] repetition = levels(data, true, leaf.descriptor().getMaxRepetitionLevel(), n);
                int[] definition = levels(data, true, leaf.descriptor().getMaxDefinitionLevel(), n);
                return count(repetition, definition, n, n == chunk.getValueCount(), leaf);
            }
            // a dictionary (or index) page: the data pages follow it
            in.skipNBytes(compressed);
        }
        return UNKNOWN;
    }

    private static int[] levels(ByteBuffer in, boolean lengthPrefixed, int max, int n) {
        if (n < 0 || n > MAX_BYTES) {
            throw new IllegalArgumentException("a page of " + n + " values");
        }
        int[] levels = new int[n];
        if (max == 0) {
            return levels;
        }
        ByteBuffer block = in;
        if (lengthPrefixed) {
            int length = in.getInt();
            block = in.slice(in.position(), length);
            in.position(in.position() + length);
        }
        HybridLevels.decode(block, HybridLevels.bitWidth(max), levels, n);
        return levels;
    }

    /**
     * The entries of the page's first row; {@code wholeRows} when the page cannot end inside a row (a v2 page, or
     * the chunk's only page), so a row that reaches the page's end is complete.
     */
    private static long count(int[] repetition, int[] definition, int n, boolean wholeRows, ParquetLeaf leaf) {
        if (n == 0 || definition[0] < leaf.rowDefinition()) {
            return UNKNOWN;
        }
        long values = 0;
        for (int i = 0; i < n; i++) {
            if (i > 0 && repetition[i] == 0) {
                return values;
            }
            if (definition[i] >= leaf.entryDefinition()) {
                values++;
            }
        }
        return wholeRows ? values : UNKNOWN;
    }

    /**
     * The values of the first row of record batch {@code block} (which has rows): its list column's first two
     * offsets. {@code column} is the index of the list field among {@code fields}.
     */
    public static long arrow(HadoopChannel channel, ArrowBlock block, RecordBatch batch, java.util.List<Field> fields,
            int column, BufferAllocator allocator) {
        try {
            // a list of lists: its offsets count inner lists, not values
            if (!(fields.get(column).getType() instanceof ArrowType.List)
                    || fields.get(column).getChildren().get(0).getType() instanceof ArrowType.List
                    || fields.get(column).getChildren().get(0).getType() instanceof ArrowType.LargeList) {
                return UNKNOWN;
            }
            int nodes = 0;
            int buffers = 0;
            for (int i = 0; i < column; i++) {
                int[] counted = count(fields.get(i));
                if (counted == null) {
                    return UNKNOWN;
                }
                nodes += counted[0];
                buffers += counted[1];
            }
            FieldNode node = batch.nodes(nodes);
            if (node == null || node.length() < 1 || node.nullCount() > 0) {
                return UNKNOWN;
            }
            // a list's buffers: validity, then offsets
            Buffer offsets = batch.buffers(buffers + 1);
            if (offsets == null || offsets.length() < 8 || offsets.length() > MAX_BYTES) {
                return UNKNOWN;
            }
            long at = block.getOffset() + block.getMetadataLength() + offsets.offset();
            ByteBuffer bytes = ByteBuffer.allocate((int) offsets.length()).order(ByteOrder.LITTLE_ENDIAN);
            channel.position(at);
            while (bytes.hasRemaining() && channel.read(bytes) > 0) {
                // reads on until the buffer is full or the file ends
            }
            bytes.flip();
            if (batch.compression() == null) {
                return bytes.remaining() < 8 ? UNKNOWN : (long) bytes.getInt(4) - bytes.getInt(0);
            }
            long uncompressed = bytes.getLong(0);
            if (uncompressed == CompressionUtil.NO_COMPRESSION_LENGTH) {
                return bytes.remaining() < 16 ? UNKNOWN : (long) bytes.getInt(12) - bytes.getInt(8);
            }
            if (uncompressed < 8 || uncompressed > MAX_BYTES) {
                return UNKNOWN;
            }
            CompressionCodec codec = CommonsCompressionFactory.INSTANCE.createCodec(
                    CompressionUtil.CodecType.fromCompressionType(batch.compression().codec()));
            ArrowBuf packed = allocator.buffer(bytes.remaining());
            packed.setBytes(0, bytes);
            // the codec reads up to the writer index, and releases the buffer once it has decompressed it
            packed.writerIndex(bytes.remaining());
            ArrowBuf plain;
            try {
                plain = codec.decompress(allocator, packed);
            } catch (RuntimeException e) {
                packed.close();
                throw e;
            }
            try (plain) {
                return plain.capacity() < 8 ? UNKNOWN : (long) plain.getInt(4) - plain.getInt(0);
            }
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** The field nodes and buffers a field and its children take in a record batch, or null when not fixed. */
    private static int[] count(Field field) {
        ArrowType type = field.getType() instanceof ArrowType.ExtensionType extension ? extension.storageType()
                : field.getType();
        TypeLayout layout = TypeLayout.getTypeLayout(type);
        if (!layout.isFixedBufferCount()) {
            return null;
        }
        int[] counted = {1, layout.getBufferLayouts().size()};
        for (Field child : field.getChildren()) {
            int[] inner = count(child);
            if (inner == null) {
                return null;
            }
            counted[0] += inner[0];
            counted[1] += inner[1];
        }
        return counted;
    }
}
