package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;

/** A Hive partition key's value, typed as {@link HiveLayout} inferred it, written into a kept column's rows. */
final class PartitionValues {
    private PartitionValues() {}

    /** Sets rows {@code [from, to)} of {@code vector} to {@code value} (null: the default partition). */
    static void fill(FieldVector vector, KeptColumn column, String value, int from, int to) {
        if (value == null) {
            for (int r = from; r < to; r++) {
                vector.setNull(r);
            }
            return;
        }
        switch (column.kind()) {
            case INT32 -> {
                int number = Integer.parseInt(value.startsWith("+") ? value.substring(1) : value);
                for (int r = from; r < to; r++) {
                    ((IntVector) vector).setSafe(r, number);
                }
            }
            case INT64 -> {
                long number = Long.parseLong(value.startsWith("+") ? value.substring(1) : value);
                for (int r = from; r < to; r++) {
                    ((BigIntVector) vector).setSafe(r, number);
                }
            }
            case DATE32 -> {
                int day = Math.toIntExact(LocalDate.parse(value).toEpochDay());
                for (int r = from; r < to; r++) {
                    ((DateDayVector) vector).setSafe(r, day);
                }
            }
            case STRING -> {
                byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
                for (int r = from; r < to; r++) {
                    ((VarCharVector) vector).setSafe(r, utf8);
                }
            }
            default -> throw new IllegalArgumentException("a partition key is no " + column.typeName());
        }
    }
}
