package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.arrowio.kept.KeptSource;
import dev.tensorbroadcast.planner.SourceRows;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.spark.sql.catalyst.InternalRow;

/**
 * The kept columns of a task's rows, taken from the DataFrame's rows (after {@code index} and {@code tensor}) as Spark
 * holds them and put into Arrow vectors as a dataset's kept columns are read from its input: the values Spark's types
 * hold, converted back to the stored kind (a timestamp's microseconds to its unit, a {@code decimal(20,0)} to
 * uint64). Every {@link #CHUNK_ROWS} rows go to the task's spill file as one batch of an Arrow IPC stream, so the task
 * holds a chunk, not its partition; the file writer then reads them back in row order ({@link #holding}), a batch's
 * rows at a time.
 */
final class KeptValues implements KeptSource, Closeable {
    /** Where the kept columns start in a row: after {@code index} and {@code tensor}. */
    private static final int FIRST = 2;
    /** The rows held before they are written to the file. */
    static final int CHUNK_ROWS = 4096;

    private final List<KeptColumn> columns;
    private final SpillFile spill;
    private KeptRows chunk;
    private VectorSchemaRoot chunkRoot;
    private ArrowStreamWriter writer;
    private int inChunk;

    /** Reading back: the rows of the batch last read ({@code [readFirst, readEnd)}), and the rows last handed out. */
    private BufferAllocator readAllocator;

    private ArrowStreamReader reader;
    private long readFirst;
    private long readEnd;
    private KeptRows window;

    KeptValues(List<KeptColumn> columns, SpillFile spill) {
        this.columns = List.copyOf(requireNonNull(columns, "columns is null"));
        this.spill = requireNonNull(spill, "spill is null");
    }

    @Override
    public List<KeptColumn> columns() {
        return columns;
    }

    /** Takes {@code row}'s kept values, copied out of Spark's reused row. */
    void add(InternalRow row) throws IOException {
        if (chunk == null) {
            chunk = KeptRows.allocate(columns, new SourceRows(0, CHUNK_ROWS));
            List<FieldVector> vectors = new ArrayList<>();
            for (int c = 0; c < columns.size(); c++) {
                vectors.add(chunk.vector(c));
            }
            chunkRoot = new VectorSchemaRoot(vectors);
            writer = new ArrowStreamWriter(chunkRoot, null, spill.channel());
            writer.start();
        }
        for (int c = 0; c < columns.size(); c++) {
            int field = FIRST + c;
            FieldVector vector = chunk.vector(c);
            if (row.isNullAt(field)) {
                vector.setNull(inChunk);
            } else {
                set(columns.get(c).kind(), vector, inChunk, row, field);
            }
        }
        if (++inChunk == CHUNK_ROWS) {
            writeChunk();
        }
    }

    /** Writes the rows still held to the file, which then holds all of them, the first being dataset row {@code first}. */
    void finish(long first) throws IOException {
        if (writer == null) {
            throw new IllegalStateException("no kept values were added");
        }
        if (inChunk > 0) {
            writeChunk();
        }
        writer.end();
        chunk.close();
        chunk = null;
        spill.channel().position(0);
        readAllocator = new RootAllocator();
        reader = new ArrowStreamReader(spill.channel(), readAllocator);
        readFirst = first;
        readEnd = first;
    }

    /**
     * The rows {@code wanted}, read from the file after {@link #finish}: rows are asked for in order, so each batch
     * of the file is read once.
     */
    @Override
    public KeptRows holding(SourceRows wanted) {
        if (reader == null || wanted.first() < readFirst) {
            throw new IllegalStateException("Cannot read kept rows " + wanted + ": they are read once, in order");
        }
        if (window != null) {
            window.close();
            window = null;
        }
        KeptRows rows = KeptRows.allocate(columns, wanted);
        try {
            VectorSchemaRoot read = reader.getVectorSchemaRoot();
            for (long row = wanted.first(); row < wanted.end(); row++) {
                while (row >= readEnd) {
                    if (!reader.loadNextBatch()) {
                        throw new IllegalStateException(
                                "Cannot read kept row " + row + ": the spilled rows end at " + readEnd);
                    }
                    readFirst = readEnd;
                    readEnd += read.getRowCount();
                }
                for (int c = 0; c < columns.size(); c++) {
                    rows.vector(c)
                            .copyFromSafe(
                                    Math.toIntExact(row - readFirst),
                                    Math.toIntExact(row - wanted.first()),
                                    read.getVector(c));
                }
            }
        } catch (IOException e) {
            rows.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            rows.close();
            throw e;
        }
        window = rows.finish();
        return window;
    }

    private void writeChunk() throws IOException {
        chunkRoot.setRowCount(inChunk);
        writer.writeBatch();
        for (int c = 0; c < columns.size(); c++) {
            chunk.vector(c).reset();
        }
        inChunk = 0;
    }

    /** Releases the vectors; the file is the caller's to delete. */
    @Override
    public void close() {
        // the reader's batch before its allocator
        try (BufferAllocator allocator = readAllocator;
                ArrowStreamReader open = reader;
                KeptRows handed = window;
                KeptRows held = chunk) {
            chunk = null;
            window = null;
            reader = null;
            readAllocator = null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void set(KeptColumn.Kind kind, FieldVector vector, int r, InternalRow row, int field) {
        switch (kind) {
            case INT8 -> ((TinyIntVector) vector).setSafe(r, row.getByte(field));
            case INT16 -> ((SmallIntVector) vector).setSafe(r, row.getShort(field));
            case INT32 -> ((IntVector) vector).setSafe(r, row.getInt(field));
            case INT64 -> ((BigIntVector) vector).setSafe(r, row.getLong(field));
            case UINT8 -> ((UInt1Vector) vector).setSafe(r, row.getShort(field));
            case UINT16 -> ((UInt2Vector) vector).setSafe(r, row.getInt(field));
            case UINT32 -> ((UInt4Vector) vector).setSafe(r, (int) row.getLong(field));
            case UINT64 ->
                ((UInt8Vector) vector)
                        .setSafe(
                                r,
                                row.getDecimal(field, 20, 0)
                                        .toJavaBigDecimal()
                                        .toBigInteger()
                                        .longValue());
            case FLOAT32 -> ((Float4Vector) vector).setSafe(r, row.getFloat(field));
            case FLOAT64 -> ((Float8Vector) vector).setSafe(r, row.getDouble(field));
            case BOOL -> ((BitVector) vector).setSafe(r, row.getBoolean(field) ? 1 : 0);
            case STRING ->
                ((VarCharVector) vector).setSafe(r, row.getUTF8String(field).getBytes());
            case LARGE_STRING ->
                ((LargeVarCharVector) vector)
                        .setSafe(r, row.getUTF8String(field).getBytes());
            case BINARY -> ((VarBinaryVector) vector).setSafe(r, row.getBinary(field));
            case LARGE_BINARY -> ((LargeVarBinaryVector) vector).setSafe(r, row.getBinary(field));
            case DATE32 -> ((DateDayVector) vector).setSafe(r, row.getInt(field));
            case TIMESTAMP_MS -> ((TimeStampVector) vector).setSafe(r, Math.floorDiv(row.getLong(field), 1000L));
            case TIMESTAMP_US -> ((TimeStampVector) vector).setSafe(r, row.getLong(field));
            case TIMESTAMP_NS -> ((TimeStampVector) vector).setSafe(r, Math.multiplyExact(row.getLong(field), 1000L));
        }
    }
}
