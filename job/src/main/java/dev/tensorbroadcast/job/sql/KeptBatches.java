package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.planner.RowLineage;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.Decimal;

/**
 * A partition's kept columns as Spark column vectors, one batch at a time: the rows were read from the files as Arrow
 * vectors ({@link KeptRows}), and each batch's are copied into Spark's vectors in Spark's types
 * ({@link KeptSparkTypes}). A kept column holds one scalar per row, so the copy is small next to the tensor's values.
 */
final class KeptBatches implements AutoCloseable {
    private static final BigInteger UNSIGNED_LONG = BigInteger.ONE.shiftLeft(64);

    private final KeptRows rows;
    private final WritableColumnVector[] vectors;
    /** Which source row each of the partition's rows comes from; null when row {@code r} is entry {@code r}. */
    private final RowLineage lineage;
    /** The output row the partition starts at, when it follows a lineage. */
    private final long firstRow;

    /** Room for this many rows at first; a larger batch grows the vectors. */
    private static final int FIRST_CAPACITY = 4096;

    /** The partition's rows are {@code rows}' entries, one for one (a dataset's own rows). */
    KeptBatches(KeptRows rows) {
        this(rows, null, 0);
    }

    /**
     * The partition's rows, from output row {@code firstRow} on, each take the kept values of the source row
     * {@code lineage} gives, which {@code rows} holds (a broadcast's rows: a source row may fill many).
     */
    KeptBatches(KeptRows rows, RowLineage lineage, long firstRow) {
        this.rows = requireNonNull(rows, "rows is null");
        this.lineage = lineage;
        this.firstRow = firstRow;
        List<KeptColumn> columns = rows.columns();
        this.vectors = new WritableColumnVector[columns.size()];
        for (int c = 0; c < vectors.length; c++) {
            vectors[c] = new OnHeapColumnVector(FIRST_CAPACITY, KeptSparkTypes.of(columns.get(c)));
        }
    }

    /** The vectors {@link #fill} fills. */
    WritableColumnVector[] vectors() {
        return vectors;
    }

    /** Fills the vectors with rows {@code [first, first + count)} of the partition's. */
    void fill(int first, int count) {
        for (int c = 0; c < vectors.length; c++) {
            WritableColumnVector to = vectors[c];
            to.reset();
            to.reserve(count);
            copy(rows.columns().get(c), rows.vector(c), first, count, to);
        }
    }

    /** The entry of {@link #rows} that the partition's row {@code row} takes its values from. */
    private int entry(int row) {
        return lineage == null
                ? row
                : Math.toIntExact(
                        lineage.sourceRow(firstRow + row) - rows.rows().first());
    }

    private void copy(KeptColumn column, FieldVector from, int first, int count, WritableColumnVector to) {
        for (int r = 0; r < count; r++) {
            int at = entry(first + r);
            if (from.isNull(at)) {
                to.putNull(r);
                continue;
            }
            switch (column.kind()) {
                case INT8 -> to.putByte(r, ((TinyIntVector) from).get(at));
                case INT16 -> to.putShort(r, ((SmallIntVector) from).get(at));
                case INT32 -> to.putInt(r, ((IntVector) from).get(at));
                case INT64 -> to.putLong(r, ((BigIntVector) from).get(at));
                case UINT8 -> to.putShort(r, (short) Byte.toUnsignedInt(((UInt1Vector) from).get(at)));
                case UINT16 -> to.putInt(r, ((UInt2Vector) from).get(at));
                case UINT32 -> to.putLong(r, Integer.toUnsignedLong(((UInt4Vector) from).get(at)));
                case UINT64 -> {
                    long value = ((UInt8Vector) from).get(at);
                    BigInteger unsigned = BigInteger.valueOf(value);
                    to.putDecimal(
                            r,
                            Decimal.apply(new BigDecimal(value >= 0 ? unsigned : unsigned.add(UNSIGNED_LONG)), 20, 0),
                            20);
                }
                case FLOAT32 -> to.putFloat(r, ((Float4Vector) from).get(at));
                case FLOAT64 -> to.putDouble(r, ((Float8Vector) from).get(at));
                case BOOL -> to.putBoolean(r, ((BitVector) from).get(at) != 0);
                case STRING, BINARY -> to.putByteArray(r, ((BaseVariableWidthVector) from).get(at));
                case LARGE_STRING, LARGE_BINARY -> to.putByteArray(r, ((BaseLargeVariableWidthVector) from).get(at));
                case DATE32 -> to.putInt(r, ((DateDayVector) from).get(at));
                case TIMESTAMP_MS -> to.putLong(r, Math.multiplyExact(((TimeStampVector) from).get(at), 1000L));
                case TIMESTAMP_US -> to.putLong(r, ((TimeStampVector) from).get(at));
                case TIMESTAMP_NS -> to.putLong(r, Math.floorDiv(((TimeStampVector) from).get(at), 1000L));
            }
        }
    }

    @Override
    public void close() {
        try {
            for (WritableColumnVector vector : vectors) {
                vector.close();
            }
        } finally {
            rows.close();
        }
    }
}
