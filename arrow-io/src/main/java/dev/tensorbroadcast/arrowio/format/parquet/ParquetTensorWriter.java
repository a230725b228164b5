package dev.tensorbroadcast.arrowio.format.parquet;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.Bits;
import dev.tensorbroadcast.arrowio.JobEncodings;
import dev.tensorbroadcast.arrowio.RepeatedRows;
import dev.tensorbroadcast.arrowio.TensorBatch;
import dev.tensorbroadcast.arrowio.TensorColumn;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.codec.ZstandardCodec;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Writes tensor rows to one Parquet file, page by page, straight from the Arrow buffers the kernel filled: levels
 * follow one row's pattern ({@link RowLevels}, flat or nested by {@link ParquetWriteOptions#rowLayout}), as runs per
 * row or copies of packed rows ({@link RepetitionLevels}), values PLAIN (in place where the layouts agree). No
 * per-value writer calls, no objects per element. Each {@link #write} call becomes one row group, so memory is bounded by the caller's batch.
 */
public final class ParquetTensorWriter implements Closeable, TensorBatch.Repeats {
    /** Only used by the file writer to align row groups; ours are one per batch. */
    private static final long ROW_GROUP_BYTES = 128L << 20;

    private final ParquetTensorSchema schema;
    private final ParquetWriteOptions options;
    private final ParquetFileWriter writer;
    private final CodecFactory codecs;
    private final BytesInputCompressor compressor;
    private final long rowElements;
    private final PlainValues plain;
    /** The levels of one row, the same for every row; replayed as runs. */
    private final RowLevels rowLevels;

    private final RepetitionLevels repetition;
    private final RleRuns definition;
    private long rows;
    private boolean closed;

    private final KeptPages keptPages = new KeptPages();
    private final ByteStreamSplit split = new ByteStreamSplit();
    /** Whether the values go BYTE_STREAM_SPLIT: asked for, and floats or doubles. */
    private final boolean splitStreams;

    private final int valueWidth;
    /** Compressed tensor pages of earlier rows, reused for rows of the same values; null when not asked for. */
    private RepeatedRows<CompressedPage> pages;

    private long reusedPages;
    /** The kernel whose source's tasks share their pages ({@link JobEncodings}), or null. */
    private TensorKernel sharedKernel;
    /** The pages {@link #before} found for the batch starting at {@link #plannedRow}, in order; else null. */
    private List<CompressedPage> planned;

    private long plannedRow = -1;
    /** Elements of the program's output per row (a complex element is one, where {@link #rowElements} counts two). */
    private long programRowElements;

    /**
     * What decides a tensor page's bytes besides its source: the program, the row size, the column and the options
     * (codec, level, layout, encoding), the output elements it holds (named by {@link JobEncodings#sharedStart}) and
     * whether its values have nulls.
     */
    private record SharedPage(
            CopyProgram program,
            long rowElements,
            TensorColumn column,
            ParquetWriteOptions options,
            long start,
            long length,
            int variant) {}

    /** A tensor column page as written: the page header's counts and encoding, and the compressed body. */
    @SuppressWarnings("ArrayRecordComponent") // a page body, never compared
    private record CompressedPage(
            int valueCount, int rowCount, int uncompressedBytes, byte[] body, Encoding encoding) {}

    private ParquetTensorWriter(
            OutputFile file, TensorColumn column, List<KeptColumn> kept, ParquetWriteOptions options)
            throws IOException {
        this.options = requireNonNull(options, "options is null");
        this.schema = new ParquetTensorSchema(column, kept, options.rowLayout());
        this.rowLevels = schema.levels();
        this.repetition = new RepetitionLevels(rowLevels);
        this.definition = new RleRuns(rowLevels.present);
        this.rowElements = column.storageShape().elements();
        this.plain = new PlainValues(column.dtype());
        PrimitiveTypeName physical = ParquetTensorSchema.physicalType(column.dtype());
        this.splitStreams = options.byteStreamSplit()
                && (physical == PrimitiveTypeName.FLOAT || physical == PrimitiveTypeName.DOUBLE);
        this.valueWidth = physical == PrimitiveTypeName.DOUBLE ? 8 : 4;
        // the codec first: a codec that is not available must fail before the file exists
        Configuration conf = new Configuration(false);
        if (options.compressionLevel() > 0) {
            conf.setInt(ZstandardCodec.PARQUET_COMPRESS_ZSTD_LEVEL, options.compressionLevel());
        }
        this.codecs = new CodecFactory(conf, (int) Math.min(options.pageBytes(), 1 << 30));
        OpenedFile opened = new OpenedFile(file);
        BytesInputCompressor made = null;
        try {
            // zstd as frames of pieces under its 128 KiB block (see ZstdFrames: parquet-java's stream pre-splits)
            made = options.codec() == CompressionCodecName.ZSTD
                    ? new ZstdPageCompressor(
                            options.compressionLevel() > 0
                                    ? options.compressionLevel()
                                    : ZstandardCodec.DEFAULT_PARQUET_COMPRESS_ZSTD_LEVEL)
                    : codecs.getCompressor(options.codec());
            this.compressor = made;
            this.writer = new ParquetFileWriter(
                    opened,
                    schema.messageType(),
                    ParquetFileWriter.Mode.CREATE,
                    ROW_GROUP_BYTES,
                    0,
                    Integer.MAX_VALUE,
                    Integer.MAX_VALUE,
                    false);
            writer.start();
        } catch (Throwable e) {
            opened.closeAfter(e);
            codecs.release();
            if (made instanceof ZstdPageCompressor zstd) {
                zstd.release();
            }
            throw e;
        }
    }

    /** Opens a writer for rows of {@code column}; the file is created (it must not exist). */
    public static ParquetTensorWriter create(OutputFile file, TensorColumn column, ParquetWriteOptions options)
            throws IOException {
        return create(file, column, List.of(), options);
    }

    /** Opens a writer for rows of {@code column} followed by the {@code kept} columns. */
    public static ParquetTensorWriter create(
            OutputFile file, TensorColumn column, List<KeptColumn> kept, ParquetWriteOptions options)
            throws IOException {
        return new ParquetTensorWriter(
                requireNonNull(file, "file is null"),
                requireNonNull(column, "column is null"),
                requireNonNull(kept, "kept is null"),
                options);
    }

    /**
     * Writes {@code rowCount} rows: their numbers are the first {@code rowCount} entries of {@code index}, their
     * elements the first {@code rowCount * rowElements} entries of {@code values} (the child vector of the tensor
     * column; complex types count their real and imaginary parts as two entries). Both are read in place.
     */
    public void write(int rowCount, BigIntVector index, FieldVector values) throws IOException {
        write(rowCount, index, values, List.of());
    }

    /** Writes {@code rowCount} rows as above, with the kept columns' first {@code rowCount} entries. */
    public void write(int rowCount, BigIntVector index, FieldVector values, List<FieldVector> kept) throws IOException {
        write(-1, rowCount, index, values, kept);
    }

    /**
     * Writes {@code rowCount} rows as above, rows {@code firstRow} on of the output (which {@link #reuseRepeats}
     * needs to find repeated pages; -1 when unknown).
     */
    public void write(long firstRow, int rowCount, BigIntVector index, FieldVector values, List<FieldVector> kept)
            throws IOException {
        requireNonNull(index, "index is null");
        if (kept.size() != schema.kept().size()) {
            throw new IllegalArgumentException("Cannot write " + kept.size() + " kept columns: the file has "
                    + schema.kept().size());
        }
        requireNonNull(values, "values is null");
        if (closed) {
            throw new IllegalStateException("writer is closed");
        }
        if (rowCount < 0 || (long) rowCount * Long.BYTES > index.getDataBuffer().capacity()) {
            throw new IllegalArgumentException("Cannot write " + rowCount + " rows: the index vector holds "
                    + index.getDataBuffer().capacity() / Long.BYTES);
        }
        if (rowCount == 0) {
            return;
        }
        writer.startBlock(rowCount);
        writeIndex(rowCount, index.getDataBuffer());
        writeValues(firstRow, rowCount, values);
        for (int i = 0; i < kept.size(); i++) {
            writeKept(i, rowCount, kept.get(i));
        }
        writer.endBlock();
        rows += rowCount;
    }

    /**
     * Reuses a tensor page's compressed bytes for every later page of rows that {@code program} proves hold the same
     * values ({@link RepeatedRows}), keeping at most {@code maxBytes} of compressed pages; rows have
     * {@code rowElements} elements of its output. Only with a codec and {@link ParquetWriteOptions#reuseRepeats};
     * the file is byte for byte the same either way.
     */
    public void reuseRepeats(CopyProgram program, long rowElements, long maxBytes) {
        if (options.codec() == CompressionCodecName.UNCOMPRESSED || !options.reuseRepeats()) {
            return;
        }
        pages = RepeatedRows.of(program, rowElements, 64, maxBytes, page -> {});
        programRowElements = rowElements;
    }

    /**
     * Shares tensor pages with the job's other files of {@code kernel}'s source ({@link JobEncodings}): a page that no
     * earlier page of this file repeats takes one another task compressed, when the program proves the two equal,
     * and the pages this file compresses are kept for the others. Only with {@link #reuseRepeats} on; the file is
     * byte for byte the same either way.
     */
    public void shareWithJob(TensorKernel kernel) {
        if (pages != null) {
            this.sharedKernel = requireNonNull(kernel, "kernel is null");
        }
    }

    /** How many tensor pages took their compressed bytes from an earlier page, of this file or another task's. */
    public long reusedPages() {
        return reusedPages;
    }

    /** True when every page of these rows is one this writer has compressed already (for values without nulls). */
    @Override
    public boolean before(long firstRow, int rows) {
        DType dtype = valueDtype();
        if (pages == null || dtype == DType.STRING || rowElements == 0) {
            return false;
        }
        int rowsPerPage = rowsPerPage(rows, rowElements * PlainValues.sizingBits(dtype, null));
        List<CompressedPage> found = new ArrayList<>();
        for (int done = 0; done < rows; done += rowsPerPage) {
            int count = Math.min(rowsPerPage, rows - done);
            long pageRow = firstRow + done;
            CompressedPage page = pages.find(pageRow, count, 0)
                    .or(() -> fromJob(sharedPage(pageRow, count, 0)))
                    .orElse(null);
            if (page == null) {
                return false;
            }
            found.add(page);
        }
        // the values are not filled: the pages are written from these, whatever the file's cache drops meanwhile
        planned = found;
        plannedRow = firstRow;
        return true;
    }

    /** How the job names the page of {@code count} rows from {@code firstRow}, or null when no task shares it. */
    private SharedPage sharedPage(long firstRow, int count, int variant) {
        if (sharedKernel == null) {
            return null;
        }
        long start = JobEncodings.sharedStart(sharedKernel, firstRow * programRowElements, count * programRowElements);
        return start < 0
                ? null
                : new SharedPage(
                        sharedKernel.program(),
                        programRowElements,
                        schema.column(),
                        options,
                        start,
                        count * programRowElements,
                        variant);
    }

    private Optional<CompressedPage> fromJob(SharedPage shared) {
        return shared == null
                ? Optional.empty()
                : JobEncodings.of(sharedKernel.source()).find(shared, CompressedPage.class);
    }

    public long rows() {
        return rows;
    }

    /** The size of the file so far; after {@link #close}, its final size. */
    public long bytesWritten() throws IOException {
        return writer.getPos();
    }

    /** Arrow's int64 data buffer is already PLAIN: little-endian int64s, so pages read it in place. */
    private void writeIndex(int rowCount, ArrowBuf index) throws IOException {
        ColumnDescriptor descriptor = schema.indexDescriptor();
        writer.startColumn(descriptor, rowCount, options.codec());
        int perPage = (int) Math.max(1, Math.min(rowCount, options.pageBytes() / Long.BYTES));
        for (int done = 0; done < rowCount; done += perPage) {
            int count = Math.min(perPage, rowCount - done);
            writePage(
                    count,
                    count,
                    BytesInput.from(index.nioBuffer((long) done * Long.BYTES, count * Long.BYTES)),
                    indexStatistics(descriptor, index, done, count));
        }
        writer.endColumn();
    }

    private int rowsPerPage(int rowCount, long rowBits) {
        long pageBits = Math.min(options.pageBytes(), Long.MAX_VALUE / 8) * 8;
        return (int) Math.max(1, Math.min(rowCount, pageBits / Math.max(1, rowBits)));
    }

    private void writeValues(long firstRow, int rowCount, FieldVector values) throws IOException {
        ColumnDescriptor descriptor = schema.valuesDescriptor();
        long levels = rowCount * rowLevels.entries;
        writer.startColumn(descriptor, levels, options.codec());
        int rowsPerPage = rowsPerPage(rowCount, rowElements * PlainValues.sizingBits(valueDtype(), values));
        boolean nulls = values.getNullCount() > 0;
        boolean repeats = pages != null && firstRow >= 0;
        List<CompressedPage> found = planned != null && plannedRow == firstRow ? planned : null;
        planned = null;
        plannedRow = -1;
        int variant = nulls ? 1 : 0;
        for (int done = 0, number = 0; done < rowCount; done += rowsPerPage, number++) {
            int count = Math.min(rowsPerPage, rowCount - done);
            CompressedPage page = null;
            SharedPage shared = null;
            if (found != null) {
                page = found.get(number);
            } else if (repeats) {
                page = pages.find(firstRow + done, count, variant).orElse(null);
                if (page == null) {
                    shared = sharedPage(firstRow + done, count, variant);
                    page = fromJob(shared).orElse(null);
                    if (page != null) {
                        pages.add(firstRow + done, count, variant, page, page.body().length);
                    }
                }
            }
            if (page == null) {
                page = encodePage(descriptor, values, nulls, done, count, repeats);
                if (repeats) {
                    pages.add(firstRow + done, count, variant, page, page.body().length);
                }
                if (shared != null) {
                    JobEncodings.of(sharedKernel.source()).offer(shared, page, page.body().length);
                }
            } else {
                reusedPages++;
                writer.writeDataPage(
                        page.valueCount(),
                        page.uncompressedBytes(),
                        BytesInput.from(page.body()),
                        Statistics.createStats(descriptor.getPrimitiveType()),
                        page.rowCount(),
                        Encoding.RLE,
                        Encoding.RLE,
                        page.encoding());
            }
        }
        writer.endColumn();
    }

    /**
     * Encodes, compresses and writes the page of {@code count} rows from row {@code done} of the batch; returns it
     * with its compressed bytes copied when {@code keep} (the compressor reuses its output buffer), else null.
     */
    private CompressedPage encodePage(
            ColumnDescriptor descriptor, FieldVector values, boolean nulls, int done, int count, boolean keep)
            throws IOException {
        long from = done * rowElements;
        long to = from + count * rowElements;
        definition.reset();
        if (rowLevels.empty) {
            definition.add(rowLevels.emptyDefinition, count * rowLevels.entries);
        } else if (nulls) {
            addValidityRuns(values.getValidityBuffer(), from, to);
        } else {
            definition.add(rowLevels.present, to - from);
        }
        // the level and value buffers are reused: each page is written out before the next is encoded
        BytesInput encoded = plain.encode(values, nulls, from, to);
        if (splitStreams) {
            encoded = split.split(encoded, valueWidth);
        }
        BytesInput body = BytesInput.concat(repetition.encode(count), definition.finishWithLength(), encoded);
        int valueCount = Math.toIntExact(count * rowLevels.entries);
        Encoding encoding = splitStreams ? Encoding.BYTE_STREAM_SPLIT : Encoding.PLAIN;
        int uncompressed = Math.toIntExact(body.size());
        BytesInput compressed = compressor.compress(body);
        byte[] kept = keep ? compressed.toByteArray() : null;
        writer.writeDataPage(
                valueCount,
                uncompressed,
                kept != null ? BytesInput.from(kept) : compressed,
                Statistics.createStats(descriptor.getPrimitiveType()),
                count,
                Encoding.RLE,
                Encoding.RLE,
                encoding);
        return kept == null ? null : new CompressedPage(valueCount, count, uncompressed, kept, encoding);
    }

    private void writeKept(int column, int rowCount, FieldVector vector) throws IOException {
        ColumnDescriptor descriptor = schema.keptDescriptor(column);
        writer.startColumn(descriptor, rowCount, options.codec());
        keptPages.write(
                schema.kept().get(column),
                descriptor.getPrimitiveType(),
                vector,
                rowCount,
                (valueCount, pageRows, body, statistics) -> {
                    long uncompressed = body.size();
                    writer.writeDataPage(
                            valueCount,
                            Math.toIntExact(uncompressed),
                            compressor.compress(body),
                            statistics,
                            pageRows,
                            Encoding.RLE,
                            Encoding.RLE,
                            Encoding.PLAIN);
                });
        writer.endColumn();
    }

    private DType valueDtype() {
        return schema.column().dtype();
    }

    /** Whole bytes of the bitmap that are all ones or all zeros add eight levels at once; others go bit by bit. */
    private void addValidityRuns(ArrowBuf validity, long from, long to) {
        long i = from;
        for (; i < to && (i & 7) != 0; i++) {
            definition.add(Bits.get(validity, i) ? rowLevels.present : rowLevels.nullValue, 1);
        }
        for (; i + 8 <= to; i += 8) {
            int bits = validity.getByte(i >>> 3) & 0xFF;
            if (bits == 0xFF) {
                definition.add(rowLevels.present, 8);
            } else if (bits == 0) {
                definition.add(rowLevels.nullValue, 8);
            } else {
                for (int bit = 0; bit < 8; bit++) {
                    definition.add((bits >>> bit & 1) != 0 ? rowLevels.present : rowLevels.nullValue, 1);
                }
            }
        }
        for (; i < to; i++) {
            definition.add(Bits.get(validity, i) ? rowLevels.present : rowLevels.nullValue, 1);
        }
    }

    private void writePage(int valueCount, int rowCount, BytesInput body, Statistics<?> statistics) throws IOException {
        long uncompressed = body.size();
        BytesInput compressed = compressor.compress(body);
        writer.writeDataPage(
                valueCount,
                Math.toIntExact(uncompressed),
                compressed,
                statistics,
                rowCount,
                Encoding.RLE,
                Encoding.RLE,
                Encoding.PLAIN);
    }

    /**
     * The index page's minimum and maximum (it never holds nulls), so that readers prune row groups and pages by row
     * number: Spark, DuckDB and pyarrow read them from the footer and the page index. One pass over the page's longs.
     */
    private static Statistics<?> indexStatistics(ColumnDescriptor descriptor, ArrowBuf index, int from, int count) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = from; i < from + count; i++) {
            long value = index.getLong((long) i * Long.BYTES);
            min = Math.min(min, value);
            max = Math.max(max, value);
        }
        LongStatistics statistics = (LongStatistics) Statistics.createStats(descriptor.getPrimitiveType());
        statistics.setMinMax(min, max);
        statistics.setNumNulls(0);
        return statistics;
    }

    /** Writes the footer, with the Arrow schema, and closes the file. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            writer.end(schema.keyValueMetadata());
        } finally {
            codecs.release();
            if (compressor instanceof ZstdPageCompressor zstd) {
                zstd.release();
            }
        }
    }
}
