package dev.tensorbroadcast.arrowio.format.arrow;

import static dev.tensorbroadcast.arrowio.format.FirstRowValues.MAX_BYTES;
import static dev.tensorbroadcast.arrowio.format.FirstRowValues.UNKNOWN;

import dev.tensorbroadcast.arrowio.format.FirstRowValues;
import dev.tensorbroadcast.arrowio.format.HadoopChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.flatbuf.Buffer;
import org.apache.arrow.flatbuf.FieldNode;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/** How many values the first row of an Arrow IPC file's list column holds: {@link FirstRowValues} for Arrow. */
final class ArrowFirstRow {
    private ArrowFirstRow() {}

    /**
     * The values of the first row of record batch {@code block} (which has rows): its list column's first two
     * offsets. {@code column} is the index of the list field among {@code fields}.
     */
    static long arrow(
            HadoopChannel channel,
            ArrowBlock block,
            RecordBatch batch,
            java.util.List<Field> fields,
            int column,
            BufferAllocator allocator) {
        try {
            // a list of lists: its offsets count inner lists, not values
            if (!(fields.get(column).getType() instanceof ArrowType.List)
                    || fields.get(column).getChildren().get(0).getType() instanceof ArrowType.List
                    || fields.get(column).getChildren().get(0).getType() instanceof ArrowType.LargeList) {
                return UNKNOWN;
            }
            int nodes = 0;
            int buffers = 0;
            for (int i = 0; i < column; i++) {
                int[] counted = count(fields.get(i));
                if (counted == null) {
                    return UNKNOWN;
                }
                nodes += counted[0];
                buffers += counted[1];
            }
            FieldNode node = batch.nodes(nodes);
            if (node == null || node.length() < 1 || node.nullCount() > 0) {
                return UNKNOWN;
            }
            // a list's buffers: validity, then offsets
            Buffer offsets = batch.buffers(buffers + 1);
            if (offsets == null || offsets.length() < 8 || offsets.length() > MAX_BYTES) {
                return UNKNOWN;
            }
            long at = block.getOffset() + block.getMetadataLength() + offsets.offset();
            ByteBuffer bytes = ByteBuffer.allocate((int) offsets.length()).order(ByteOrder.LITTLE_ENDIAN);
            channel.position(at);
            while (bytes.hasRemaining() && channel.read(bytes) > 0) {
                // reads on until the buffer is full or the file ends
            }
            bytes.flip();
            if (batch.compression() == null) {
                return bytes.remaining() < 8 ? UNKNOWN : (long) bytes.getInt(4) - bytes.getInt(0);
            }
            long uncompressed = bytes.getLong(0);
            if (uncompressed == CompressionUtil.NO_COMPRESSION_LENGTH) {
                return bytes.remaining() < 16 ? UNKNOWN : (long) bytes.getInt(12) - bytes.getInt(8);
            }
            if (uncompressed < 8 || uncompressed > MAX_BYTES) {
                return UNKNOWN;
            }
            CompressionCodec codec =
                    CommonsCompressionFactory.INSTANCE.createCodec(CompressionUtil.CodecType.fromCompressionType(
                            batch.compression().codec()));
            ArrowBuf packed = allocator.buffer(bytes.remaining());
            packed.setBytes(0, bytes);
            // the codec reads up to the writer index, and releases the buffer once it has decompressed it
            packed.writerIndex(bytes.remaining());
            ArrowBuf plain;
            try {
                plain = codec.decompress(allocator, packed);
            } catch (RuntimeException e) {
                packed.close();
                throw e;
            }
            try (plain) {
                return plain.capacity() < 8 ? UNKNOWN : (long) plain.getInt(4) - plain.getInt(0);
            }
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** The field nodes and buffers a field and its children take in a record batch, or null when not fixed. */
    private static int[] count(Field field) {
        ArrowType type = field.getType() instanceof ArrowType.ExtensionType extension
                ? extension.storageType()
                : field.getType();
        TypeLayout layout = TypeLayout.getTypeLayout(type);
        if (!layout.isFixedBufferCount()) {
            return null;
        }
        int[] counted = {1, layout.getBufferLayouts().size()};
        for (Field child : field.getChildren()) {
            int[] inner = count(child);
            if (inner == null) {
                return null;
            }
            counted[0] += inner[0];
            counted[1] += inner[1];
        }
        return counted;
    }
}
