package dev.tensorbroadcast.arrowio.format.parquet;

import static dev.tensorbroadcast.arrowio.format.FirstRowValues.MAX_BYTES;
import static dev.tensorbroadcast.arrowio.format.FirstRowValues.UNKNOWN;

import dev.tensorbroadcast.arrowio.format.FirstRowValues;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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

/** How many values the first row of a Parquet file's list column holds: {@link FirstRowValues} for Parquet. */
final class ParquetFirstRow {
    /** Dictionary or index pages may come before the first data page; more than a few means something odd. */
    private static final int MAX_PAGES = 4;

    private ParquetFirstRow() {}

    /** The values of the file's first row, from the first row group that has rows. */
    static long parquet(
            FileSystem fileSystem,
            Path path,
            Iterable<BlockMetaData> groups,
            ParquetLeaf leaf,
            ParquetReadOptions options) {
        for (BlockMetaData group : groups) {
            if (group.getRowCount() == 0) {
                continue;
            }
            for (ColumnChunkMetaData chunk : group.getColumns()) {
                if (java.util.Arrays.equals(
                        chunk.getPath().toArray(), leaf.descriptor().getPath())) {
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

    private static long firstPage(
            FSDataInputStream in, ColumnChunkMetaData chunk, ParquetLeaf leaf, ParquetReadOptions options)
            throws IOException {
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
                int[] repetition = levels(
                        levels.slice(0, repetitionBytes),
                        false,
                        leaf.descriptor().getMaxRepetitionLevel(),
                        n);
                int[] definition = levels(
                        levels.slice(repetitionBytes, definitionBytes),
                        false,
                        leaf.descriptor().getMaxDefinitionLevel(),
                        n);
                return count(repetition, definition, n, true, leaf);
            }
            if (header.getType() == PageType.DATA_PAGE) {
                DataPageHeader v1 = header.getData_page_header();
                if (v1.getRepetition_level_encoding() != Encoding.RLE
                        || v1.getDefinition_level_encoding() != Encoding.RLE
                        || header.getUncompressed_page_size() < 0
                        || header.getUncompressed_page_size() > MAX_BYTES) {
                    return UNKNOWN;
                }
                BytesInput bytes = options.getCodecFactory()
                        .getDecompressor(chunk.getCodec())
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
}
