package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.format.HadoopChannel;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;

/**
 * The messages of an Arrow IPC stream in a file, read header by header: each message is a length prefix, its
 * metadata flatbuffer (which says the body's length) and its body, so a stream is indexed by reading the headers and
 * seeking past the bodies. Every declared length is checked against the bytes the file has before anything is
 * allocated for it.
 */
final class StreamMessages {
    private static final int CONTINUATION = 0xFFFFFFFF;
    /** Larger metadata than this is no Arrow writer's: a schema of thousands of columns takes tens of KiB. */
    private static final int MAX_METADATA = 64 << 20;

    private StreamMessages() {}

    /**
     * One message's header.
     *
     * @param offset where the message starts in the file
     * @param metadataLength the bytes of its prefix and metadata, as an Arrow file's block counts them
     * @param message its metadata
     */
    record Header(long offset, int metadataLength, Message message) {
        long bodyLength() {
            return message.bodyLength();
        }

        long end() {
            return offset + metadataLength + bodyLength();
        }

        byte type() {
            return message.headerType();
        }

        RecordBatch recordBatch() {
            return (RecordBatch) message.header(new RecordBatch());
        }
    }

    /**
     * A stream's schema message and its record batches' headers, in order.
     *
     * @param schema the first message
     * @param batches the record batches
     */
    record Index(Header schema, List<Header> batches) {}

    /** Reads every header from the start; a dictionary that follows a record batch is refused (see below). */
    static Index index(String name, HadoopChannel channel) throws IOException {
        Header schema = read(name, channel, 0);
        if (schema == null || schema.type() != MessageHeader.Schema) {
            throw new SourceFormatException(name, "the Arrow IPC stream does not start with a schema message");
        }
        List<Header> batches = new ArrayList<>();
        long at = schema.end();
        Header header;
        while ((header = read(name, channel, at)) != null) {
            if (header.type() == MessageHeader.RecordBatch) {
                batches.add(header);
            } else if (header.type() == MessageHeader.DictionaryBatch && !batches.isEmpty()) {
                // a task reads the dictionaries before the first batch, then jumps to its own batches
                throw new SourceFormatException(
                        name,
                        "the Arrow IPC stream replaces or extends a dictionary after"
                                + " its first record batch (at byte " + at + "); a stream read in slices has its"
                                + " dictionaries first, as pyarrow writes them");
            } else if (header.type() != MessageHeader.DictionaryBatch) {
                throw new SourceFormatException(
                        name,
                        "the Arrow IPC stream has a message of type "
                                + header.type() + " at byte " + at
                                + "; after its schema a stream holds dictionaries and"
                                + " record batches");
            }
            at = header.end();
        }
        return new Index(schema, batches);
    }

    /**
     * The header of the message at {@code offset}, or null at the end of the stream (its end marker, or the end
     * of the file).
     */
    static Header read(String name, HadoopChannel channel, long offset) throws IOException {
        long size = channel.size();
        if (offset == size) {
            return null;
        }
        ByteBuffer prefix = readFully(name, channel, offset, 4);
        int length = prefix.getInt(0);
        int prefixLength = 4;
        if (length == CONTINUATION) {
            length = readFully(name, channel, offset + 4, 4).getInt(0);
            prefixLength = 8;
        }
        if (length == 0) {
            return null;
        }
        long remaining = size - offset - prefixLength;
        if (length < 0 || length > remaining || length > MAX_METADATA) {
            throw new SourceFormatException(
                    name,
                    "the Arrow stream's message at byte " + offset + " declares " + Integer.toUnsignedString(length)
                            + " bytes of metadata but " + remaining + " bytes remain");
        }
        ByteBuffer metadata = readFully(name, channel, offset + prefixLength, length);
        Message message;
        try {
            message = Message.getRootAsMessage(metadata);
            message.headerType();
        } catch (RuntimeException e) {
            throw new SourceFormatException(
                    name, "the Arrow stream's message at byte " + offset + " has malformed metadata", e);
        }
        Header header = new Header(offset, prefixLength + length, message);
        long body = message.bodyLength();
        if (body < 0 || body > remaining - length) {
            throw new SourceFormatException(
                    name,
                    "the Arrow stream's message at byte " + offset + " declares a " + body + "-byte body but "
                            + (remaining - length) + " bytes remain");
        }
        return header;
    }

    private static ByteBuffer readFully(String name, HadoopChannel channel, long offset, int length)
            throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        channel.position(offset);
        while (bytes.hasRemaining()) {
            if (channel.read(bytes) < 0) {
                throw new SourceFormatException(
                        name, "the Arrow stream is truncated: it ends inside the message" + " at byte " + offset);
            }
        }
        bytes.flip();
        return bytes;
    }
}
