package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import org.junit.jupiter.api.Test;

class PartitionPlanTest {
    private static final long MILLION = 1_000_000;

    @Test
    void petaElementOutputInAMillionPartitions() {
        PartitionPlan plan = PartitionPlan.builder(Shape.of(MILLION, MILLION, 1000), DType.FLOAT32)
                .partitions(MILLION)
                .build();
        assertThat(plan.elements()).isEqualTo(1_000_000_000_000_000L);
        assertThat(plan.bytes()).isEqualTo(4_000_000_000_000_000L);
        // a row of the first dim alone would be 4 GB, over the 64 MiB maximum: the second dim joins
        assertThat(plan.rowDims()).isEqualTo(2);
        assertThat(plan.rows()).isEqualTo(MILLION * MILLION);
        assertThat(plan.rowShape()).isEqualTo(Shape.of(1000));
        assertThat(plan.rowElements()).isEqualTo(1000);
        assertThat(plan.rowBytes()).isEqualTo(4000);
        assertThat(plan.partitionCount()).isEqualTo(MILLION);
        assertThat(plan.minPartitionRows()).isEqualTo(MILLION);
        assertThat(plan.maxPartitionRows()).isEqualTo(MILLION);
        assertThat(plan.partition(0)).isEqualTo(new Partition(0, 0, MILLION, 1000));
        assertThat(plan.partition(MILLION - 1))
                .isEqualTo(new Partition(MILLION - 1, (MILLION - 1) * MILLION, MILLION, 1000));
        assertThat(plan.partition(MILLION - 1).endElement()).isEqualTo(plan.elements());
        long next = 0;
        for (long index = 0; index < plan.partitionCount(); index++) {
            Partition partition = plan.partition(index);
            assertThat(partition.firstRow()).isEqualTo(next);
            next = partition.endRow();
        }
        assertThat(next).isEqualTo(plan.rows());
        assertThat(plan.partitionOfRow(plan.rows() - 1).index()).isEqualTo(MILLION - 1);
        assertThat(plan.partitionOfRow(123_456_789_012L).index()).isEqualTo(123_456);
        assertThat(plan).hasToString("(1000000,1000000,1000) as 1000000000000 rows of (1000,) in 1000000 partitions");
    }

    @Test
    void gibibyteInDefaultPartitions() {
        PartitionPlan plan =
                PartitionPlan.builder(Shape.of(65536, 4096), DType.FLOAT32).build();
        assertThat(plan.bytes()).isEqualTo(1L << 30);
        assertThat(plan.rowDims()).isEqualTo(1);
        assertThat(plan.rowShape()).isEqualTo(Shape.of(4096));
        assertThat(plan.rowBytes()).isEqualTo(16384);
        assertThat(plan.partitionCount()).isEqualTo(8);
        for (long index = 0; index < 8; index++) {
            assertThat(plan.partition(index)).isEqualTo(new Partition(index, index * 8192, 8192, 4096));
        }
    }

    @Test
    void unevenRowsGoOneMoreToTheFirstPartitions() {
        PartitionPlan plan =
                PartitionPlan.builder(Shape.of(10, 3), DType.INT8).partitions(4).build();
        assertThat(plan.partitionCount()).isEqualTo(4);
        assertThat(plan.partition(0)).isEqualTo(new Partition(0, 0, 3, 3));
        assertThat(plan.partition(1)).isEqualTo(new Partition(1, 3, 3, 3));
        assertThat(plan.partition(2)).isEqualTo(new Partition(2, 6, 2, 3));
        assertThat(plan.partition(3)).isEqualTo(new Partition(3, 8, 2, 3));
        assertThat(plan.partitionOfRow(5).index()).isEqualTo(1);
        assertThat(plan.partitionOfRow(6).index()).isEqualTo(2);
        assertThat(plan.minPartitionRows()).isEqualTo(2);
        assertThat(plan.maxPartitionRows()).isEqualTo(3);
    }

    @Test
    void moreLeadingDimsJoinWhenAnExactCountNeedsMoreRows() {
        PartitionPlan plan = PartitionPlan.builder(Shape.of(2, 3, 5), DType.INT32)
                .partitions(4)
                .build();
        assertThat(plan.rowDims()).isEqualTo(2);
        assertThat(plan.rows()).isEqualTo(6);
        assertThat(plan.rowShape()).isEqualTo(Shape.of(5));
        assertThat(plan.partitionCount()).isEqualTo(4);
    }

    @Test
    void dimsJoinForAnExactCountOnlyWhileThatGivesMoreRows() {
        // joining the 0 would turn 5 empty rows into none
        PartitionPlan emptyRows = PartitionPlan.builder(Shape.of(5, 0), DType.FLOAT32)
                .partitions(10)
                .build();
        assertThat(emptyRows.rowDims()).isEqualTo(1);
        assertThat(emptyRows.rows()).isEqualTo(5);
        assertThat(emptyRows.rowShape()).isEqualTo(Shape.of(0));
        assertThat(emptyRows.partitionCount()).isEqualTo(5);
        assertThat(emptyRows.partition(4)).isEqualTo(new Partition(4, 4, 1, 0));

        PartitionPlan noRows = PartitionPlan.builder(Shape.of(0, 5), DType.FLOAT32)
                .partitions(10)
                .build();
        assertThat(noRows.rowDims()).isEqualTo(1);
        assertThat(noRows.rowShape()).isEqualTo(Shape.of(5));
        assertThat(noRows.partitionCount()).isEqualTo(1);

        // trailing 1s cannot give more rows: the first dim keeps indexing them
        PartitionPlan ones = PartitionPlan.builder(Shape.of(3, 1, 1), DType.FLOAT32)
                .partitions(10)
                .build();
        assertThat(ones.rowDims()).isEqualTo(1);
        assertThat(ones.rowShape()).isEqualTo(Shape.of(1, 1));
        assertThat(ones.partitionCount()).isEqualTo(3);

        // a 1 in the middle is crossed when a dim after it gives more rows
        PartitionPlan middle = PartitionPlan.builder(Shape.of(2, 1, 3), DType.FLOAT32)
                .partitions(4)
                .build();
        assertThat(middle.rowDims()).isEqualTo(3);
        assertThat(middle.rows()).isEqualTo(6);
    }

    @Test
    void rowsNeverExceedThePartitionSize() {
        PartitionPlan plan = PartitionPlan.builder(Shape.of(4, 1000), DType.FLOAT64)
                .partitionBytes(4000)
                .build();
        // a row of 1000 float64 is 8000 bytes, over the 4000-byte partitions: every element is a row
        assertThat(plan.rowDims()).isEqualTo(2);
        assertThat(plan.rows()).isEqualTo(4000);
        assertThat(plan.rowShape()).isEqualTo(Shape.scalar());
        assertThat(plan.partitionCount()).isEqualTo(8);
    }

    @Test
    void oneRowOutput() {
        PartitionPlan plan = PartitionPlan.builder(Shape.of(1, 4096), DType.FLOAT32)
                .partitions(10)
                .build();
        assertThat(plan.rowDims()).isEqualTo(2);
        assertThat(plan.rows()).isEqualTo(4096);
        PartitionPlan bySize =
                PartitionPlan.builder(Shape.of(1, 4096), DType.FLOAT32).build();
        assertThat(bySize.rowDims()).isEqualTo(1);
        assertThat(bySize.rows()).isEqualTo(1);
        assertThat(bySize.rowShape()).isEqualTo(Shape.of(4096));
        assertThat(bySize.partitionCount()).isEqualTo(1);
        assertThat(bySize.partition(0)).isEqualTo(new Partition(0, 0, 1, 4096));
    }

    @Test
    void scalarOutputIsOneRow() {
        PartitionPlan plan = PartitionPlan.builder(Shape.scalar(), DType.FLOAT64)
                .partitions(7)
                .build();
        assertThat(plan.rowDims()).isZero();
        assertThat(plan.rows()).isEqualTo(1);
        assertThat(plan.rowShape()).isEqualTo(Shape.scalar());
        assertThat(plan.rowElements()).isEqualTo(1);
        assertThat(plan.bytes()).isEqualTo(8);
        assertThat(plan.partitionCount()).isEqualTo(1);
        assertThat(plan.partition(0)).isEqualTo(new Partition(0, 0, 1, 1));
        assertThat(plan.partitionOfRow(0)).isEqualTo(plan.partition(0));
    }

    @Test
    void zeroSizeOutputs() {
        PartitionPlan noRows =
                PartitionPlan.builder(Shape.of(0, 5), DType.FLOAT32).build();
        assertThat(noRows.rowDims()).isEqualTo(1);
        assertThat(noRows.rows()).isZero();
        assertThat(noRows.rowShape()).isEqualTo(Shape.of(5));
        assertThat(noRows.bytes()).isZero();
        assertThat(noRows.partitionCount()).isEqualTo(1);
        assertThat(noRows.partition(0)).isEqualTo(new Partition(0, 0, 0, 5));
        assertThatThrownBy(() -> noRows.partitionOfRow(0))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("row 0 outside [0, 0)");

        PartitionPlan emptyRows =
                PartitionPlan.builder(Shape.of(5, 0), DType.FLOAT32).build();
        assertThat(emptyRows.rows()).isEqualTo(5);
        assertThat(emptyRows.rowShape()).isEqualTo(Shape.of(0));
        assertThat(emptyRows.rowElements()).isZero();
        assertThat(emptyRows.partitionCount()).isEqualTo(1);
        assertThat(emptyRows.partition(0)).isEqualTo(new Partition(0, 0, 5, 0));
        assertThat(emptyRows.partition(0).elementCount()).isZero();
    }

    @Test
    void boolBytesRoundUp() {
        PartitionPlan plan = PartitionPlan.builder(Shape.of(3, 7), DType.BOOL).build();
        assertThat(plan.elementBits()).isEqualTo(1);
        assertThat(plan.bytes()).isEqualTo(3);
        assertThat(plan.rowBytes()).isEqualTo(1);
        assertThat(PartitionPlan.builder(Shape.of(2, 8), DType.BOOL).build().bytes())
                .isEqualTo(2);
        assertThat(PartitionPlan.builder(Shape.of(17), DType.BOOL).build().bytes())
                .isEqualTo(3);
    }

    @Test
    void stringsAreSizedByTheAssumedOrGivenWidth() {
        assertThat(PartitionPlan.builder(Shape.of(10), DType.STRING).build().bytes())
                .isEqualTo(160);
        assertThat(PartitionPlan.builder(Shape.of(10), DType.STRING)
                        .elementBits(256)
                        .build()
                        .bytes())
                .isEqualTo(320);
    }

    @Test
    void byteCountOverflowIsTooLarge() {
        assertThatThrownBy(() -> PartitionPlan.builder(Shape.of(1L << 60, 4), DType.FLOAT64)
                        .build())
                .isInstanceOf(TooLargeException.class)
                .hasMessage("Cannot size 4611686018427387904 elements of 64 bits: the byte count exceeds "
                        + "9223372036854775807");
        assertThatThrownBy(() -> PartitionPlan.builder(Shape.of(1L << 62, 4), DType.FLOAT64)
                        .build())
                .isInstanceOf(TooLargeException.class)
                .hasMessage("Cannot count the elements of shape (4611686018427387904,4): the count exceeds "
                        + "9223372036854775807");
    }

    @Test
    void tooManyPartitionsForSpark() {
        assertThatThrownBy(() -> PartitionPlan.builder(Shape.of(1L << 32), DType.INT8)
                        .partitionBytes(1)
                        .build())
                .isInstanceOf(TooLargeException.class)
                .hasMessage("Cannot plan 4294967296 partitions for output (4294967296,) (4294967296 bytes): Spark"
                        + " allows at most 2147483647; choose a larger partition size");
    }

    @Test
    void rejectsInvalidSizes() {
        PartitionPlan.Builder builder = PartitionPlan.builder(Shape.of(4), DType.INT8);
        assertThatThrownBy(() -> builder.partitions(0))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot use 0 partitions: the count must be from 1 to 2147483647");
        assertThatThrownBy(() -> builder.partitions(1L << 31))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot use 2147483648 partitions: the count must be from 1 to 2147483647");
        assertThatThrownBy(() -> builder.partitionBytes(0))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot use partition size 0: it must be at least 1 byte");
        assertThatThrownBy(() -> builder.maxRowBytes(-5))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot use maximum row size -5: it must be at least 1 byte");
    }

    @Test
    void partitionIndexesOutsideThePlanAreRejected() {
        PartitionPlan plan =
                PartitionPlan.builder(Shape.of(10), DType.INT8).partitions(2).build();
        assertThatThrownBy(() -> plan.partition(2))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("partition 2 outside [0, 2)");
        assertThatThrownBy(() -> plan.partition(-1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> plan.partitionOfRow(10))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("row 10 outside [0, 10)");
    }

    @Test
    void planPartitionAndProgramSurviveJavaSerialization() throws Exception {
        PartitionPlan plan = PartitionPlan.builder(Shape.of(10, 3, 5), DType.BOOL)
                .partitions(4)
                .build();
        PartitionPlan plan2 = roundTrip(plan);
        assertThat(plan2.output()).isEqualTo(plan.output());
        assertThat(plan2.elementBits()).isEqualTo(1);
        assertThat(plan2.rowDims()).isEqualTo(plan.rowDims());
        assertThat(plan2.partitionCount()).isEqualTo(4);
        for (long index = 0; index < 4; index++) {
            assertThat(plan2.partition(index)).isEqualTo(plan.partition(index));
        }
        assertThat(plan2.partitionOfRow(7)).isEqualTo(plan.partitionOfRow(7));

        Partition partition = plan.partition(3);
        assertThat(roundTrip(partition)).isEqualTo(partition);

        BroadcastPlan broadcast = BroadcastRequest.builder(Dialect.NUMPY)
                .input(Shape.of(3, 1))
                .target(4, 3, 5)
                .build()
                .plan();
        BroadcastPlan broadcast2 = roundTrip(broadcast);
        assertThat(broadcast2.output()).isEqualTo(Shape.of(4, 3, 5));
        assertThat(broadcast2.inputs()).isEqualTo(broadcast.inputs());
        assertThat(broadcast2.dialect()).isEqualTo(Dialect.NUMPY);
        assertThat(broadcast2.request().target()).isEqualTo(broadcast.request().target());
        assertThat(broadcast2).hasToString(broadcast.toString());

        CopyProgram program = broadcast.copyProgram(0);
        CopyProgram program2 = roundTrip(program);
        assertThat(program2).isEqualTo(program).isEqualTo(broadcast2.copyProgram(0));
        assertThat(program2.hashCode()).isEqualTo(program.hashCode());
        CopyProgramProperties.RecordingSink before = new CopyProgramProperties.RecordingSink();
        CopyProgramProperties.RecordingSink after = new CopyProgramProperties.RecordingSink();
        program.run(7, 53, before);
        program2.run(7, 53, after);
        assertThat(after.operations).isNotEmpty().isEqualTo(before.operations);
        for (long i = 0; i < program.elements(); i++) {
            assertThat(program2.sourceIndex(i)).isEqualTo(program.sourceIndex(i));
        }
    }

    @SuppressWarnings("unchecked")
    static <T> T roundTrip(T value) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }
}
