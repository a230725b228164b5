package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import java.util.Iterator;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BufferLayout;
import org.apache.arrow.vector.BufferLayout.BufferType;
import org.apache.arrow.vector.TypeLayout;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.message.ArrowFieldNode;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Checks a record batch's counts against its buffers before Arrow Java loads it. Arrow grows a vector whose buffers
 * are shorter than its declared length, filling the gap with zeros: a batch of a few bytes claiming millions of rows
 * would cost hundreds of megabytes and read as zeros and nulls that the file never held. So every declared value
 * must have its bytes: validity bits when there are nulls, offsets, fixed-width values, and children as long as their
 * parent needs them.
 */
final class RecordBatchCheck {
    private RecordBatchCheck() {}

    static void check(String file, Schema schema, ArrowRecordBatch batch) {
        Iterator<ArrowFieldNode> nodes = batch.getNodes().iterator();
        Iterator<ArrowBuf> buffers = batch.getBuffers().iterator();
        boolean compressed =
                batch.getBodyCompression().getCodec() != CompressionUtil.CodecType.NO_COMPRESSION.getType();
        for (Field field : schema.getFields()) {
            long length = check(file, field, nodes, buffers, compressed);
            if (length != batch.getLength()) {
                throw new SourceFormatException(
                        file,
                        "a record batch of " + batch.getLength() + " rows holds " + length + " values of column '"
                                + field.getName() + "'");
            }
        }
    }

    /** Checks one field and its children; returns the field's declared length, or -1 to stop (a layout not known). */
    private static long check(
            String file, Field field, Iterator<ArrowFieldNode> nodes, Iterator<ArrowBuf> buffers, boolean compressed) {
        if (!nodes.hasNext()) {
            throw new SourceFormatException(
                    file, "a record batch has no field node for column '" + field.getName() + "'");
        }
        ArrowFieldNode node = nodes.next();
        long length = node.getLength();
        long nulls = node.getNullCount();
        if (length < 0 || nulls < 0 || nulls > length) {
            throw new SourceFormatException(
                    file,
                    "a record batch declares " + length + " values with " + nulls + " nulls for column '"
                            + field.getName() + "'");
        }
        ArrowType type = field.getType() instanceof ArrowType.ExtensionType extension
                ? extension.storageType()
                : field.getType();
        TypeLayout layout = TypeLayout.getTypeLayout(type);
        if (!layout.isFixedBufferCount()) {
            // view types carry a variable number of buffers; no column of them is read, and Arrow's allocator limit
            // still bounds what they cost
            return length;
        }
        boolean variableData = type instanceof ArrowType.Utf8
                || type instanceof ArrowType.LargeUtf8
                || type instanceof ArrowType.Binary
                || type instanceof ArrowType.LargeBinary;
        for (BufferLayout buffer : layout.getBufferLayouts()) {
            if (!buffers.hasNext()) {
                throw new SourceFormatException(
                        file, "a record batch has too few buffers for column '" + field.getName() + "'");
            }
            long bytes = bytes(buffers.next(), compressed);
            long needed = needed(buffer, length, nulls, variableData);
            if (bytes < needed) {
                throw new SourceFormatException(
                        file,
                        "a record batch declares " + length + " values of column '"
                                + field.getName() + "' but its "
                                + buffer.getType().getName() + " buffer holds " + bytes
                                + " bytes where " + needed + " are needed");
            }
        }
        long childLength = switch (type.getTypeID()) {
            case FixedSizeList -> length * ((ArrowType.FixedSizeList) type).getListSize();
            case Struct -> length;
            default -> -1;
        };
        for (Field child : field.getChildren()) {
            long declared = check(file, child, nodes, buffers, compressed);
            if (childLength >= 0 && declared < childLength) {
                throw new SourceFormatException(
                        file,
                        "column '" + field.getName() + "' declares " + length
                                + " values, which need " + childLength + " child values, but its child '"
                                + child.getName()
                                + "' has " + declared);
            }
        }
        return length;
    }

    private static long needed(BufferLayout buffer, long length, long nulls, boolean variableData) {
        BufferType type = buffer.getType();
        int bits = buffer.getTypeBitWidth();
        if (type == BufferType.VALIDITY) {
            // a buffer may be left out when nothing is null
            return nulls > 0 ? (length + 7) / 8 : 0;
        }
        if (type == BufferType.OFFSET || type == BufferType.SIZE) {
            return length > 0 ? (length + 1) * (bits / 8) : 0;
        }
        if (type == BufferType.DATA && variableData) {
            // sized by the offsets, which the column reader checks against it
            return 0;
        }
        return (length * bits + 7) / 8;
    }

    /** A buffer's bytes once decompressed: a compressed buffer starts with its uncompressed length, or -1 if raw. */
    private static long bytes(ArrowBuf buffer, boolean compressed) {
        long capacity = buffer.capacity();
        if (!compressed || capacity < 8) {
            return compressed ? 0 : capacity;
        }
        long uncompressed = buffer.getLong(0);
        return uncompressed == CompressionUtil.NO_COMPRESSION_LENGTH ? capacity - 8 : uncompressed;
    }
}
