package dev.tensorbroadcast.job.sql;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.junit.jupiter.api.Test;

/** A partition read in batches of a bounded size, each the next rows, refilled in the same vectors. */
class BatchReaderTest {
    @Test
    void fillsAPartitionBatchByBatch() {
        ByteBuffer values = ByteBuffer.allocate(16)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(5)
                .putInt(6)
                .putInt(7)
                .putInt(8);
        SourceTensor source = SourceTensor.fixedWidth(DType.INT32, Shape.of(1, 4), values.array(), null);
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(Shape.of(1, 4), DType.INT32)
                .target(10, 4)
                .build()
                .plan();
        PartitionPlan partitions =
                PartitionPlan.builder(plan.output(), DType.INT32).partitions(1).build();

        List<Long> indexes = new ArrayList<>();
        List<Integer> batchRows = new ArrayList<>();
        // 64 bytes a batch: 2 rows of 16 bytes of values and 8 of index
        try (BatchReader reader =
                new BatchReader(source, plan.copyProgram(0), partitions.rowShape(), partitions.partition(0), 64)) {
            while (reader.next()) {
                ColumnarBatch batch = reader.get();
                batchRows.add(batch.numRows());
                for (int row = 0; row < batch.numRows(); row++) {
                    indexes.add(batch.column(0).getLong(row));
                    ColumnarArray tensor = batch.column(1).getArray(row);
                    assertThat(tensor.toIntArray()).containsExactly(5, 6, 7, 8);
                }
            }
        }

        assertThat(batchRows).containsExactly(2, 2, 2, 2, 2);
        assertThat(indexes).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    }

    @Test
    void rowsSparkMakesOfLaterBatchesHoldTheSourceRow() {
        // [1,3] float32 to [5,3] in batches of 2 rows: row r's elements start at r * 3 of the batch's values
        ByteBuffer values = ByteBuffer.allocate(12)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putFloat(1.5f)
                .putFloat(-2.25f)
                .putFloat(Float.NaN);
        SourceTensor source = SourceTensor.fixedWidth(DType.FLOAT32, Shape.of(1, 3), values.array(), null);
        List<float[]> elementByElement = new ArrayList<>();
        List<float[]> bulk = new ArrayList<>();
        List<float[]> unsafe = new ArrayList<>();
        readRows(source, 5, 3, 2 * 12 + 2 * 8, (row, projected) -> {
            elementByElement.add(new float[] {row.getFloat(0), row.getFloat(1), row.getFloat(2)});
            bulk.add(row.toFloatArray());
            unsafe.add(projected.toFloatArray());
            assertThat(row.isNullAt(2)).isFalse();
        });

        float[] expected = {1.5f, -2.25f, Float.NaN};
        assertThat(elementByElement)
                .hasSize(5)
                .allSatisfy(row -> assertThat(row).containsExactly(expected));
        assertThat(bulk).hasSize(5).allSatisfy(row -> assertThat(row).containsExactly(expected));
        assertThat(unsafe).hasSize(5).allSatisfy(row -> assertThat(row).containsExactly(expected));
    }

    @Test
    void nullElementsOfTheSourceAreNullInEveryRow() {
        // [1,4] int64 to [3,4] with elements 1 and 3 null (validity bits 0b0101), in batches of 2 rows
        ByteBuffer values = ByteBuffer.allocate(32)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(7)
                .putLong(0)
                .putLong(-9)
                .putLong(0);
        SourceTensor source = SourceTensor.fixedWidth(DType.INT64, Shape.of(1, 4), values.array(), new byte[] {0b0101});
        List<List<Long>> rows = new ArrayList<>();
        List<List<Long>> projectedRows = new ArrayList<>();
        readRows(source, 3, 4, 2 * 32 + 2 * 8, (row, projected) -> {
            rows.add(longs(row));
            projectedRows.add(longs(projected));
        });

        List<Long> expected = Arrays.asList(7L, null, -9L, null);
        assertThat(rows).hasSize(3).allSatisfy(row -> assertThat(row).isEqualTo(expected));
        assertThat(projectedRows).hasSize(3).allSatisfy(row -> assertThat(row).isEqualTo(expected));
    }

    /** The tensor's row elements, a null where the element is. */
    private static List<Long> longs(ArrayData row) {
        List<Long> elements = new ArrayList<>();
        for (int i = 0; i < row.numElements(); i++) {
            elements.add(row.isNullAt(i) ? null : row.getLong(i));
        }
        return elements;
    }

    /**
     * Broadcasts {@code source}, one row, to {@code rows} rows and hands each row's tensor to {@code check} twice: as
     * the batch's column reads it, and as the row Spark's own projection copies from it for a row sink.
     */
    private static void readRows(SourceTensor source, long rows, long rowElements, long batchBytes, RowCheck check) {
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(source.shape(), source.dtype())
                .target(rows, rowElements)
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builder(plan.output(), source.dtype())
                .partitions(1)
                .build();
        StructType schema = SparkTypes.schema(source.dtype(), source.hasNulls(), partitions.rowShape());
        UnsafeProjection toUnsafe = UnsafeProjection.create(schema);
        try (BatchReader reader = new BatchReader(
                source, plan.copyProgram(0), partitions.rowShape(), partitions.partition(0), batchBytes)) {
            while (reader.next()) {
                ColumnarBatch batch = reader.get();
                assertThat(batch.numRows()).isLessThanOrEqualTo(2);
                for (int row = 0; row < batch.numRows(); row++) {
                    UnsafeRow projected = toUnsafe.apply(batch.getRow(row));
                    check.accept(batch.column(1).getArray(row), projected.getArray(1));
                }
            }
        }
        assertThat(((ArrayType) schema.apply(1).dataType()).containsNull()).isEqualTo(source.hasNulls());
        assertThat(schema.apply(0).dataType()).isEqualTo(DataTypes.LongType);
    }

    private interface RowCheck {
        void accept(ColumnarArray row, ArrayData projected);
    }
}
