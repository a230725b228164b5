package dev.tensorbroadcast.job.pipeline;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.job.base.SparkElementTypes;
import dev.tensorbroadcast.job.dataset.ElementText;
import dev.tensorbroadcast.planner.DType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;

/**
 * One source element as a Spark SQL value, for {@code toDataset}: the Java value Spark expects for the element type
 * Spark has for our dtype. Unsigned types widen to the next signed type (uint64 to decimal(20,0)), half and brain
 * floats widen to float, complex numbers are {@code struct<real, imag>} rows.
 */
final class ElementReader {
    private final SourceTensor source;
    private final ByteBuffer values;

    ElementReader(SourceTensor source) {
        this.source = source;
        this.values = ByteBuffer.wrap(source.values()).order(ByteOrder.LITTLE_ENDIAN);
    }

    static DataType sparkType(DType dtype) {
        return SparkElementTypes.of(dtype);
    }

    /** Element {@code index} of the source, or null where it is null. */
    Object element(long index) {
        if (!source.isValid(index)) {
            return null;
        }
        int i = Math.toIntExact(index);
        return switch (source.dtype()) {
            case BOOL -> (source.values()[i >>> 3] & (1 << (i & 7))) != 0;
            case INT8 -> values.get(i);
            case INT16 -> values.getShort(2 * i);
            case UINT8 -> (short) (values.get(i) & 0xFF);
            case INT32 -> values.getInt(4 * i);
            case UINT16 -> values.getShort(2 * i) & 0xFFFF;
            case INT64 -> values.getLong(8 * i);
            case UINT32 -> values.getInt(4 * i) & 0xFFFF_FFFFL;
            case UINT64 -> new BigDecimal(new BigInteger(Long.toUnsignedString(values.getLong(8 * i))));
            case FLOAT16 -> ElementText.halfToFloat(values.getShort(2 * i));
            case BFLOAT16 -> Float.intBitsToFloat((values.getShort(2 * i) & 0xFFFF) << 16);
            case FLOAT32 -> values.getFloat(4 * i);
            case FLOAT64 -> values.getDouble(8 * i);
            case COMPLEX64 -> RowFactory.create(values.getFloat(8 * i), values.getFloat(8 * i + 4));
            case COMPLEX128 -> RowFactory.create(values.getDouble(16 * i), values.getDouble(16 * i + 8));
            case STRING ->
                new String(
                        source.values(),
                        source.offsets()[i],
                        source.offsets()[i + 1] - source.offsets()[i],
                        StandardCharsets.UTF_8);
        };
    }
}
