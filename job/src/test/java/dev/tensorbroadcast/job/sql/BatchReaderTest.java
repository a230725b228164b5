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
import java.util.List;
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
}
