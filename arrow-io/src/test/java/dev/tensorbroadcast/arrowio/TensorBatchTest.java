package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TooLargeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

class TensorBatchTest {
    /** The next file of the same schema on this thread refills the same memory, and gets its own values. */
    @Test
    void theNextBatchOfTheSameSchemaReusesTheVectors() {
        Shape input = Shape.of(3);
        Shape output = Shape.of(6, 3);
        // elements 0 and 2 null
        TensorKernel first = TensorKernel.of(
                RandomTensors.source(new Random(3), DType.INT32, input, new byte[] {0b010}),
                RandomTensors.program(input, output));
        SourceTensor second = RandomTensors.source(new Random(4), DType.INT32, input, false);
        TensorKernel secondKernel = TensorKernel.of(second, RandomTensors.program(input, output));
        long address;
        try (TensorBatch batch = TensorBatch.allocate(first, input, new Partition(0, 0, 6, 3), 1 << 20)) {
            batch.fill(0, 6);
            assertThat(batch.values().isNull(0)).isTrue();
            address = batch.values().getDataBuffer().memoryAddress();
        }
        try (TensorBatch batch = TensorBatch.allocate(secondKernel, input, new Partition(1, 2, 4, 3), 1 << 20)) {
            assertThat(batch.values().getDataBuffer().memoryAddress()).isEqualTo(address);
            batch.fill(2, 4);
            for (int i = 0; i < 12; i++) {
                // no null of the first source survives in the second's values
                assertThat(batch.values().isNull(i)).as("element %d", i).isFalse();
                assertThat(batch.values().getObject(i))
                        .isEqualTo(java.nio.ByteBuffer.wrap(second.values(), (i % 3) * 4, 4)
                                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                                .getInt());
            }
            assertThat(batch.index().get(3)).isEqualTo(5);
        }
        // another row shape: new vectors
        try (TensorBatch batch = TensorBatch.allocate(
                TensorKernel.of(second, RandomTensors.program(input, Shape.of(2, 3))),
                input,
                new Partition(0, 0, 2, 3),
                1 << 20)) {
            batch.fill(0, 2);
            assertThat(batch.values().getObject(4))
                    .isEqualTo(java.nio.ByteBuffer.wrap(second.values(), 4, 4)
                            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                            .getInt());
        }
    }

    /**
     * A batch refilled with fewer values than its thread's last file clears the validity bits past its values in
     * their last byte: the bytes written (the validity buffer up to that byte) are a fresh batch's, whatever the
     * thread wrote before.
     */
    @Test
    void aReusedBatchWritesTheValidityBytesOfAFreshOne() {
        Shape input = Shape.of(3, 5);
        SourceTensor source = RandomTensors.source(new Random(5), DType.INT32, input, false);
        TensorKernel kernel = TensorKernel.of(source, RandomTensors.program(input, Shape.of(40, 3, 5)));
        // 13 rows of 15 values: 195 bits, the last byte's bits 3 to 7 past the values
        byte fresh;
        try (TensorBatch batch = TensorBatch.allocate(kernel, input, new Partition(1, 27, 13, 15), 1 << 20)) {
            batch.fill(27, 13);
            fresh = batch.values().getValidityBuffer().getByte(195 / 8);
        }
        assertThat(fresh).isEqualTo((byte) 0b111);
        try (TensorBatch batch = TensorBatch.allocate(kernel, input, new Partition(0, 0, 14, 15), 1 << 20)) {
            batch.fill(0, 14);
        }
        try (TensorBatch batch = TensorBatch.allocate(kernel, input, new Partition(1, 27, 13, 15), 1 << 20)) {
            batch.fill(27, 13);
            assertThat(batch.values().getValidityBuffer().getByte(195 / 8)).isEqualTo(fresh);
        }
    }

    @Test
    void aFillSetsTheRowCountOfEveryVector() {
        SourceTensor source = RandomTensors.source(new Random(1), DType.COMPLEX64, Shape.of(3), true);
        TensorKernel kernel = TensorKernel.of(source, RandomTensors.program(Shape.of(3), Shape.of(5, 3)));
        try (TensorBatch batch = TensorBatch.allocate(kernel, Shape.of(3), new Partition(0, 0, 5, 3), 1 << 20)) {
            batch.fill(1, 4);
            assertThat(batch.root().getRowCount()).isEqualTo(4);
            assertThat(batch.index().getValueCount()).isEqualTo(4);
            assertThat(batch.index().get(3)).isEqualTo(4);
            // complex: two stored values per element
            assertThat(batch.values().getValueCount()).isEqualTo(4 * 3 * 2);
            batch.fill(0, 2);
            assertThat(batch.root().getRowCount()).isEqualTo(2);
            assertThat(batch.values().getValueCount()).isEqualTo(2 * 3 * 2);
        }
    }

    @Test
    void writeAllHandsOverEveryBatchOfThePartitionInOrder() throws Exception {
        SourceTensor source = RandomTensors.source(new Random(2), DType.STRING, Shape.of(4), false);
        TensorKernel kernel = TensorKernel.of(source, RandomTensors.program(Shape.of(4), Shape.of(9, 4)));
        List<String> seen = new ArrayList<>();
        // 1 byte per batch: one row each
        try (TensorBatch batch = TensorBatch.allocate(kernel, Shape.of(4), new Partition(1, 2, 5, 4), 1)) {
            int batches = batch.writeAll((firstRow, rows) -> {
                VarCharVector strings = (VarCharVector) batch.values();
                assertThat(firstRow).isEqualTo(batch.index().get(0));
                seen.add(batch.index().get(0) + ":" + rows + ":" + strings.getValueCount() + ":"
                        + new String(strings.get(3), java.nio.charset.StandardCharsets.UTF_8));
            });
            assertThat(batches).isEqualTo(5);
        }
        String last = RandomTensors.string(source, 3);
        assertThat(seen)
                .containsExactly("2:1:4:" + last, "3:1:4:" + last, "4:1:4:" + last, "5:1:4:" + last, "6:1:4:" + last);
    }

    @Test
    void checksThePartitionAgainstTheRowShapeAndTheOutput() {
        SourceTensor source = SourceTensor.fixedWidth(DType.INT8, Shape.of(3), new byte[3], null);
        TensorKernel kernel = TensorKernel.of(source, RandomTensors.program(Shape.of(3), Shape.of(2, 3)));
        assertThatThrownBy(() -> TensorBatch.allocate(kernel, Shape.of(4), new Partition(0, 0, 2, 3), 100))
                .hasMessage("Cannot write partition 0: its rows have 3 elements but row shape [4] has 4");
        assertThatThrownBy(() -> TensorBatch.allocate(kernel, Shape.of(3), new Partition(0, 1, 2, 3), 100))
                .hasMessage("Cannot write partition 0: it ends at element 9 of an output of 6");
    }

    @Test
    void refusesToFillMoreRowsThanABatchHolds() {
        SourceTensor source = SourceTensor.fixedWidth(DType.INT8, Shape.of(3), new byte[3], null);
        TensorKernel kernel = TensorKernel.of(source, RandomTensors.program(Shape.of(3), Shape.of(4, 3)));
        try (TensorBatch batch = TensorBatch.allocate(kernel, Shape.of(3), new Partition(0, 0, 2, 3), 1 << 20)) {
            assertThat(batch.rowsPerBatch()).isEqualTo(2);
            assertThatThrownBy(() -> batch.fill(0, 3)).hasMessage("Cannot fill 3 rows: a batch holds 0 to 2");
        }
    }

    @Test
    void rowsOfStringsBeyondWhatABatchHoldsAreTooLarge() {
        assertThatThrownBy(() -> TensorBatch.rowsPerBatch(1 << 20, DType.STRING, Shape.of(1000, 3000), 1000, 10))
                .isInstanceOf(TooLargeException.class)
                .hasMessage("Cannot write rows of shape [1000,3000] of strings: with the longest string of 1000 bytes"
                        + " a row may need 3000000000 bytes, more than the 2147483647 an Arrow batch holds; a smaller"
                        + " partition size gives smaller rows");
        assertThat(TensorBatch.rowsPerBatch(1 << 20, DType.STRING, Shape.of(1000, 2000), 1000, 10))
                .isEqualTo(1);
    }
}
