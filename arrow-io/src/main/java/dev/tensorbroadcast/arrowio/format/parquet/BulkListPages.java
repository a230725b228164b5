package dev.tensorbroadcast.arrowio.format.parquet;

import dev.tensorbroadcast.arrowio.format.SliceBuffer;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.planner.Param;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.Set;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Reads a list column of fixed-width numbers (one list per row: pyarrow's, Spark's and DuckDB's list and fixed-size
 * list columns) page by page into a slice, without parquet-java's per-value column reader: the levels are decoded a
 * run at a time into int arrays, and the values of consecutive present elements are copied from the page in one
 * block (PLAIN) or looked up in the dictionary in a tight loop (dictionary pages). It stops at the last row wanted.
 * For what it does not cover (nested lists, narrowed integers, other encodings) the caller uses the column reader.
 */
final class BulkListPages {
    private static final Set<Encoding> DECODED =
            EnumSet.of(Encoding.PLAIN, Encoding.RLE, Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);

    private final String name;
    private final int maxRepetition;
    private final int maxDefinition;
    private final int rowDefinition;
    private final int entryDefinition;
    private final int width;
    private int[] repetition = new int[0];
    private int[] definition = new int[0];
    private int[] indexes = new int[0];

    BulkListPages(String name, ColumnDescriptor descriptor, int rowDefinition, int entryDefinition, int width) {
        this.name = name;
        this.maxRepetition = descriptor.getMaxRepetitionLevel();
        this.maxDefinition = descriptor.getMaxDefinitionLevel();
        this.rowDefinition = rowDefinition;
        this.entryDefinition = entryDefinition;
        this.width = width;
    }

    /** Whether a column chunk can be read here: one list level, values stored at their own width, known encodings. */
    static boolean covers(ColumnDescriptor descriptor, ColumnChunkMetaData chunk, int width) {
        PrimitiveTypeName physical = descriptor.getPrimitiveType().getPrimitiveTypeName();
        int stored = switch (physical) {
            case FLOAT, INT32 -> 4;
            case DOUBLE, INT64 -> 8;
            default -> -1;
        };
        return descriptor.getMaxRepetitionLevel() == 1 && stored == width && DECODED.containsAll(chunk.getEncodings());
    }

    /** The progress of the row being read, carried from page to page (a row may span pages). */
    private static final class Row {
        long index = -1;
        long count;
        boolean nullRow;
    }

    /**
     * Reads group rows {@code [first, last)} of one row group's column into {@code out} from {@code outRow} on;
     * {@code fileRow} is the file row of the group's row 0, for messages.
     */
    void read(PageReader pages, long first, long last, long fileRow, SliceBuffer out, long outRow) throws IOException {
        DictionaryPage dictionaryPage = pages.readDictionaryPage();
        byte[] dictionary =
                dictionaryPage == null ? null : dictionaryPage.getBytes().toByteArray();
        long rowElements = out.rowElements();
        byte[] target = out.values();
        Row row = new Row();
        for (DataPage page = pages.readPage(); page != null; page = pages.readPage()) {
            int n = page.getValueCount();
            ensure(n);
            ByteBuffer data;
            Encoding encoding;
            if (page instanceof DataPageV1 v1) {
                data = v1.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                levels(data, true, maxRepetition, repetition, n, v1.getRlEncoding());
                levels(data, true, maxDefinition, definition, n, v1.getDlEncoding());
                encoding = v1.getValueEncoding();
            } else {
                DataPageV2 v2 = (DataPageV2) page;
                levels(v2.getRepetitionLevels().toByteBuffer(), false, maxRepetition, repetition, n, Encoding.RLE);
                levels(v2.getDefinitionLevels().toByteBuffer(), false, maxDefinition, definition, n, Encoding.RLE);
                data = v2.getData().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                encoding = v2.getDataEncoding();
            }
            boolean dictionaryEncoded = encoding.usesDictionary();
            if (dictionaryEncoded) {
                if (dictionary == null) {
                    throw new SourceFormatException(name, "a dictionary-encoded page has no dictionary page");
                }
                int present = 0;
                for (int i = 0; i < n; i++) {
                    present += definition[i] == maxDefinition ? 1 : 0;
                }
                int bitWidth = data.get() & 0xFF;
                HybridLevels.decode(data, bitWidth, indexes, present);
            } else if (encoding != Encoding.PLAIN) {
                throw new SourceFormatException(
                        name, "a page is encoded " + encoding + ", which its column chunk did" + " not list");
            }
            int pageValues = data.hasArray() ? data.arrayOffset() + data.position() : data.position();
            byte[] page0 = dictionaryEncoded ? null : bytesOf(data);
            int value = 0;
            Run run = new Run(page0, pageValues, target);
            for (int i = 0; i < n; i++) {
                int whole = repetition[i] == 0 ? wholeRow(i, n, rowElements) : 0;
                if (whole > 0 && row.index + 1 < last) {
                    // the common row: all its values present, inside this page; taken as one block
                    finish(row, first, fileRow, rowElements);
                    row.index++;
                    row.nullRow = false;
                    row.count = whole;
                    if (row.index >= first) {
                        int to = out.offset(outRow + row.index - first, 0);
                        if (dictionaryEncoded) {
                            lookUp(dictionary, indexes, value, whole, target, to);
                        } else {
                            run.add(value, to, whole);
                        }
                    }
                    value += whole;
                    i += whole - 1;
                    continue;
                }
                if (repetition[i] == 0) {
                    run.flush();
                    finish(row, first, fileRow, rowElements);
                    row.index++;
                    row.count = 0;
                    row.nullRow = false;
                    if (row.index >= last) {
                        return;
                    }
                }
                int level = definition[i];
                boolean keep = row.index >= first;
                if (level >= entryDefinition) {
                    boolean present = level == maxDefinition;
                    if (keep && row.count < rowElements) {
                        long at = outRow + row.index - first;
                        if (present) {
                            int to = out.offset(at, row.count);
                            if (dictionaryEncoded) {
                                System.arraycopy(dictionary, indexes[value] * width, target, to, width);
                            } else {
                                run.add(value, to, 1);
                            }
                        } else {
                            out.setNull(at, row.count);
                        }
                    }
                    row.count++;
                    if (present) {
                        value++;
                    }
                } else if (level < rowDefinition) {
                    row.nullRow = true;
                }
            }
            run.flush();
        }
        finish(row, first, fileRow, rowElements);
        if (row.index + 1 < last) {
            throw new SourceFormatException(name, "a row group ends before its row " + (fileRow + row.index + 1));
        }
    }

    /**
     * The length of the row starting at level {@code i} when it has exactly {@code rowElements} values, all present,
     * and ends inside this page's {@code n} levels (or at its end); else 0.
     */
    private int wholeRow(int i, int n, long rowElements) {
        if (i + rowElements > n) {
            return 0;
        }
        int end = i + (int) rowElements;
        if (end < n && repetition[end] != 0) {
            return 0;
        }
        int absent = definition[i] ^ maxDefinition;
        for (int j = i + 1; j < end; j++) {
            absent |= (definition[j] ^ maxDefinition) | (repetition[j] ^ 1);
        }
        return absent == 0 ? (int) rowElements : 0;
    }

    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Dictionary values {@code indexes[from, from + count)} into {@code target} from byte {@code to} on. */
    private void lookUp(byte[] dictionary, int[] indexes, int from, int count, byte[] target, int to) {
        if (width == 4) {
            for (int k = 0; k < count; k++) {
                INTS.set(target, to + 4 * k, (int) INTS.get(dictionary, 4 * indexes[from + k]));
            }
        } else {
            for (int k = 0; k < count; k++) {
                LONGS.set(target, to + 8 * k, (long) LONGS.get(dictionary, 8 * indexes[from + k]));
            }
        }
    }

    /** Present PLAIN values of a page waiting to be copied as one block: {@code length} values from {@code start}. */
    private final class Run {
        private final byte[] page;
        private final int pageOffset;
        private final byte[] target;
        private int start;
        private int to;
        private int length;

        Run(byte[] page, int pageOffset, byte[] target) {
            this.page = page;
            this.pageOffset = pageOffset;
            this.target = target;
        }

        /** Page values {@code [value, value + count)} go to {@code at} on: joined to the run when they follow it. */
        void add(int value, int at, int count) {
            if (length > 0 && at == to + length * width && value == start + length) {
                length += count;
                return;
            }
            flush();
            start = value;
            to = at;
            length = count;
        }

        void flush() {
            if (length > 0) {
                System.arraycopy(page, pageOffset + start * width, target, to, length * width);
                length = 0;
            }
        }
    }

    /** Checks the row just read, if it was wanted. */
    private void finish(Row row, long first, long fileRow, long rowElements) {
        if (row.index < first) {
            return;
        }
        if (row.nullRow) {
            throw new SourceFormatException(name, "row " + (fileRow + row.index) + " is null; every row needs values");
        }
        if (row.count != rowElements) {
            throw new SourceFormatException(
                    name,
                    "row " + (fileRow + row.index) + " has " + row.count + " values; every row needs " + rowElements
                            + " (" + Param.ROW_SHAPE.named() + ")");
        }
    }

    /** The levels of one page: length-prefixed in a v1 page, bare in a v2 page; none when the maximum is 0. */
    private void levels(ByteBuffer in, boolean lengthPrefixed, int max, int[] out, int count, Encoding encoding) {
        if (max == 0) {
            java.util.Arrays.fill(out, 0, count, 0);
            return;
        }
        if (encoding != Encoding.RLE) {
            throw new SourceFormatException(name, "a page's levels are encoded " + encoding + ", not RLE");
        }
        ByteBuffer levels = in.order(ByteOrder.LITTLE_ENDIAN);
        if (lengthPrefixed) {
            int length = levels.getInt();
            ByteBuffer block = levels.slice().limit(length);
            HybridLevels.decode(block, HybridLevels.bitWidth(max), out, count);
            levels.position(levels.position() + length);
        } else {
            HybridLevels.decode(levels, HybridLevels.bitWidth(max), out, count);
        }
    }

    /** The page's bytes as an array: its own when it has one, else a copy. */
    @SuppressWarnings("ByteBufferBackingArray") // the caller reads from arrayOffset() + position()
    private static byte[] bytesOf(ByteBuffer data) {
        if (data.hasArray()) {
            return data.array();
        }
        byte[] copy = new byte[data.capacity()];
        data.duplicate().position(0).get(copy);
        return copy;
    }

    private void ensure(int n) {
        if (repetition.length < n) {
            repetition = new int[n];
            definition = new int[n];
            indexes = new int[n];
        }
    }
}
