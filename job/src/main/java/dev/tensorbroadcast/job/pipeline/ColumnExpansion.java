package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.CopySink;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import java.io.Serializable;
import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.collection.immutable.ArraySeq;

/**
 * Expands a tensor column of a {@code Dataset<Row>} row by row: each row's array, of the plan's input shape, becomes
 * an array of the plan's output shape, filled by the plan's copy program with bulk array copies (a source run is
 * copied at once and a repeated block doubles in place). The other columns pass through; a null row stays null.
 */
public final class ColumnExpansion implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String column;
    private final Shape rowShape;
    private final Shape outputShape;
    private final CopyProgram program;

    private ColumnExpansion(String column, BroadcastPlan plan) {
        this.column = requireNonNull(column, "column is null");
        this.rowShape = plan.input(0).input();
        this.outputShape = plan.output();
        this.program = plan.copyProgram(0);
    }

    /** Expands {@code column} of {@code data} by {@code rowPlan}, a plan for one row (the batch dim is the rows). */
    public static Dataset<Row> expand(Dataset<Row> data, String column, BroadcastPlan rowPlan) {
        requireNonNull(data, "data is null");
        requireNonNull(rowPlan, "rowPlan is null");
        if (rowPlan.inputs().size() != 1) {
            throw new InvalidRequestException("Cannot expand column '" + column + "': a row is one tensor, but the"
                    + " request has " + rowPlan.inputs().size() + " inputs");
        }
        StructType schema = data.schema();
        int at = Arrays.asList(schema.fieldNames()).indexOf(column);
        if (at < 0) {
            throw new InvalidRequestException("Cannot expand column '" + column + "': there is no such column; the"
                    + " columns are " + Arrays.toString(schema.fieldNames()));
        }
        StructField field = schema.fields()[at];
        if (!(field.dataType() instanceof ArrayType array) || elementClass(array.elementType()) == null) {
            throw new InvalidRequestException("Cannot expand column '" + column + "': it is "
                    + field.dataType().simpleString() + "; expected an array of tinyint, smallint, int, bigint, float"
                    + " or double");
        }
        long outputElements = rowPlan.output().elements();
        if (outputElements > Integer.MAX_VALUE - 8) {
            throw new InvalidRequestException("Cannot expand column '" + column + "' to rows of "
                    + rowPlan.output().toList() + ": a row of " + outputElements + " elements does not fit a Spark"
                    + " array");
        }
        StructField[] fields = schema.fields().clone();
        fields[at] = new StructField(
                column, DataTypes.createArrayType(array.elementType(), false), field.nullable(), field.metadata());
        ColumnExpansion expansion = new ColumnExpansion(column, rowPlan);
        Dataset<Row> expanded = data.mapPartitions(
                expansion.rows(at, elementClass(array.elementType())), Encoders.row(new StructType(fields)));
        // the expanded row's shape rides with the flat array, as the files' Arrow schema carries it (an encoder's
        // schema loses column metadata, a projection keeps it)
        return expanded.withColumn(
                column, expanded.col(column).as(column, RowDatasets.shapeMetadata(field.metadata(), rowPlan.output())));
    }

    private static Class<?> elementClass(DataType type) {
        if (type.equals(DataTypes.FloatType)) {
            return float.class;
        }
        if (type.equals(DataTypes.DoubleType)) {
            return double.class;
        }
        if (type.equals(DataTypes.IntegerType)) {
            return int.class;
        }
        if (type.equals(DataTypes.LongType)) {
            return long.class;
        }
        if (type.equals(DataTypes.ShortType)) {
            return short.class;
        }
        if (type.equals(DataTypes.ByteType)) {
            return byte.class;
        }
        return null;
    }

    private MapPartitionsFunction<Row, Row> rows(int at, Class<?> element) {
        return input -> new Iterator<>() {
            private final ArraySink sink = new ArraySink();

            @Override
            public boolean hasNext() {
                return input.hasNext();
            }

            @Override
            public Row next() {
                Row row = input.next();
                Object[] values = new Object[row.length()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = row.get(i);
                }
                if (!row.isNullAt(at)) {
                    values[at] = ArraySeq.unsafeWrapArray(expandRow(row.getList(at), element, sink));
                }
                return RowFactory.create(values);
            }
        };
    }

    /** The row's values as a primitive array, then the program run into a new one of the output's size. */
    private Object expandRow(List<Object> values, Class<?> element, ArraySink sink) {
        long rowElements = rowShape.elements();
        if (values.size() != rowElements) {
            throw new InvalidRequestException("Cannot expand column '" + column + "': a row has " + values.size()
                    + " values; rows of " + rowShape.toList() + " have " + rowElements);
        }
        Object source = Array.newInstance(element, values.size());
        for (int i = 0; i < values.size(); i++) {
            Object value = values.get(i);
            if (value == null) {
                throw new InvalidRequestException("Cannot expand column '" + column + "': a row holds a null at "
                        + "element " + i + "; rows to expand hold numbers only");
            }
            Array.set(source, i, value);
        }
        Object target = Array.newInstance(element, Math.toIntExact(outputShape.elements()));
        sink.source = source;
        sink.target = target;
        program.run(0, program.elements(), sink);
        return target;
    }

    /** Bulk copies between primitive arrays: a run with one arraycopy, a repeat by doubling the filled block. */
    private static final class ArraySink implements CopySink {
        private Object source;
        private Object target;

        @Override
        public void copy(long sourceOffset, long targetOffset, long length) {
            System.arraycopy(source, (int) sourceOffset, target, (int) targetOffset, (int) length);
        }

        @Override
        public void repeat(long targetOffset, long blockLength, long times) {
            long end = targetOffset + blockLength * times;
            for (long filled = targetOffset + blockLength; filled < end; ) {
                int length = (int) Math.min(filled - targetOffset, end - filled);
                System.arraycopy(target, (int) targetOffset, target, (int) filled, length);
                filled += length;
            }
        }
    }
}
