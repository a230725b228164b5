package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Record batches built by hand, so their counts can disagree with their buffers as a hostile file's do. */
class RecordBatchCheckTest {
    private final BufferAllocator allocator = new RootAllocator();
    /** Every buffer is a slice of this, as a reader's buffers are slices of a message body: exactly their length. */
    private final ArrowBuf body = allocator.buffer(1024);

    @AfterEach
    void close() {
        body.close();
        allocator.close();
    }

    private static final Schema INTS = new Schema(List.of(Field.notNullable("x", new ArrowType.Int(32, true))));
    private static final Schema ROWS = new Schema(List.of(new Field(
            "t",
            FieldType.notNullable(new ArrowType.FixedSizeList(3)),
            List.of(Field.notNullable("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE))))));

    private ArrowBuf buffer(int bytes) {
        return body.slice(0, bytes);
    }

    private void check(Schema schema, int rows, List<ArrowFieldNode> nodes, ArrowBuf... buffers) {
        try (ArrowRecordBatch batch = new ArrowRecordBatch(rows, nodes, List.of(buffers))) {
            RecordBatchCheck.check("b.arrow", schema, batch);
        }
    }

    @Test
    void acceptsBuffersThatHoldEveryValue() {
        assertThatCode(() -> check(INTS, 4, List.of(new ArrowFieldNode(4, 0)), buffer(0), buffer(16)))
                .doesNotThrowAnyException();
        assertThatCode(() -> check(
                        ROWS,
                        2,
                        List.of(new ArrowFieldNode(2, 1), new ArrowFieldNode(6, 0)),
                        buffer(1),
                        buffer(0),
                        buffer(24)))
                .doesNotThrowAnyException();
    }

    @Test
    void refusesAShortDataBuffer() {
        assertThatThrownBy(() -> check(INTS, 4, List.of(new ArrowFieldNode(4, 0)), buffer(0), buffer(12)))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read b.arrow: a record batch declares 4 values of column 'x' but its DATA buffer"
                        + " holds 12 bytes where 16 are needed");
    }

    @Test
    void refusesNullsWithoutValidityBits() {
        assertThatThrownBy(() -> check(INTS, 20, List.of(new ArrowFieldNode(20, 3)), buffer(2), buffer(80)))
                .hasMessage("Cannot read b.arrow: a record batch declares 20 values of column 'x' but its VALIDITY"
                        + " buffer holds 2 bytes where 3 are needed");
        assertThatThrownBy(() -> check(INTS, 2, List.of(new ArrowFieldNode(2, 3)), buffer(1), buffer(8)))
                .hasMessage("Cannot read b.arrow: a record batch declares 2 values with 3 nulls for column 'x'");
    }

    @Test
    void refusesAChildShorterThanItsRowsNeed() {
        assertThatThrownBy(() -> check(
                        ROWS,
                        2,
                        List.of(new ArrowFieldNode(2, 0), new ArrowFieldNode(5, 0)),
                        buffer(0),
                        buffer(0),
                        buffer(20)))
                .hasMessage("Cannot read b.arrow: column 't' declares 2 values, which need 6 child values, but its"
                        + " child 'item' has 5");
    }

    @Test
    void refusesRowsTheColumnsDoNotHave() {
        assertThatThrownBy(() -> check(INTS, 5, List.of(new ArrowFieldNode(4, 0)), buffer(0), buffer(16)))
                .hasMessage("Cannot read b.arrow: a record batch of 5 rows holds 4 values of column 'x'");
        assertThatThrownBy(() -> check(INTS, 0, List.of()))
                .hasMessage("Cannot read b.arrow: a record batch has no field node for column 'x'");
        assertThatThrownBy(() -> check(INTS, 4, List.of(new ArrowFieldNode(4, 0)), buffer(0)))
                .hasMessage("Cannot read b.arrow: a record batch has too few buffers for column 'x'");
    }
}
