package dev.tensorbroadcast.arrowio.source;

import dev.tensorbroadcast.arrowio.SourceTensor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A source tensor's values as plain Java objects, for assertions: integers as {@code Long} (uint64 as its signed bit
 * pattern), booleans, strings, and floating point values as their bit patterns ({@code Long}), complex numbers as
 * two-element lists of bit patterns. Nulls are {@code null}.
 */
public final class TensorValues {
    private TensorValues() {}

    public static List<Object> of(SourceTensor tensor) {
        int count = (int) tensor.elements();
        ByteBuffer values = ByteBuffer.wrap(tensor.values()).order(ByteOrder.LITTLE_ENDIAN);
        List<Object> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            if (!tensor.isValid(i)) {
                out.add(null);
                continue;
            }
            out.add(
                    switch (tensor.dtype()) {
                        case BOOL -> (tensor.values()[i >>> 3] >>> (i & 7) & 1) == 1;
                        case INT8 -> (long) values.get(i);
                        case UINT8 -> (long) (values.get(i) & 0xFF);
                        case INT16 -> (long) values.getShort(2 * i);
                        case UINT16, FLOAT16, BFLOAT16 -> (long) (values.getShort(2 * i) & 0xFFFF);
                        case INT32 -> (long) values.getInt(4 * i);
                        case UINT32, FLOAT32 -> values.getInt(4 * i) & 0xFFFFFFFFL;
                        case INT64, UINT64, FLOAT64 -> values.getLong(8 * i);
                        case COMPLEX64 ->
                            Arrays.asList(values.getInt(8 * i) & 0xFFFFFFFFL, values.getInt(8 * i + 4) & 0xFFFFFFFFL);
                        case COMPLEX128 -> Arrays.asList(values.getLong(16 * i), values.getLong(16 * i + 8));
                        case STRING ->
                            new String(
                                    tensor.values(),
                                    tensor.offsets()[i],
                                    tensor.offsets()[i + 1] - tensor.offsets()[i],
                                    StandardCharsets.UTF_8);
                    });
        }
        return out;
    }
}
