package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.format.HadoopChannel;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Loads record batches of an Arrow IPC stream by their offsets ({@link StreamMessages}), as Arrow's file reader
 * loads a file's by its footer's blocks: the schema and the dictionaries that come before the first record batch
 * are read when the root is first asked for, then only the batches asked for. LZ4 and ZSTD bodies are
 * decompressed.
 */
final class StreamBatchReader extends ArrowReader {
    private final String name;
    private final HadoopChannel channel;
    private final List<Long> offsets;
    private long bytesRead;
    private int next;

    /** {@code offsets}: where each record batch's message starts, as {@link StreamMessages#index} found them. */
    StreamBatchReader(String name, HadoopChannel channel, List<Long> offsets, BufferAllocator allocator) {
        super(allocator, CommonsCompressionFactory.INSTANCE);
        this.name = name;
        this.channel = channel;
        this.offsets = List.copyOf(offsets);
    }

    @Override
    protected Schema readSchema() throws IOException {
        StreamMessages.Header schema = StreamMessages.read(name, channel, 0);
        if (schema == null || schema.type() != MessageHeader.Schema) {
            throw new SourceFormatException(name, "the Arrow IPC stream does not start with a schema message");
        }
        bytesRead += schema.metadataLength();
        return MessageSerializer.deserializeSchema(schema.message());
    }

    @Override
    protected void initialize() throws IOException {
        super.initialize();
        long at = StreamMessages.read(name, channel, 0).end();
        StreamMessages.Header header;
        while ((header = StreamMessages.read(name, channel, at)) != null
                && header.type() == MessageHeader.DictionaryBatch) {
            // the batch owns the body's buffers, and loading closes it
            loadDictionary(MessageSerializer.deserializeDictionaryBatch(header.message(), body(header)));
            at = header.end();
        }
    }

    /** Loads record batch {@code i} of the stream into the root. */
    void load(int i) throws IOException {
        ensureInitialized();
        long offset = offsets.get(i);
        StreamMessages.Header header = StreamMessages.read(name, channel, offset);
        if (header == null || header.type() != MessageHeader.RecordBatch) {
            throw new SourceFormatException(
                    name,
                    "no record batch starts at byte " + offset + " any more; the file"
                            + " changed after the dataset was opened");
        }
        // the batch owns the body's buffers, and loading closes it
        loadRecordBatch(MessageSerializer.deserializeRecordBatch(header.message(), body(header)));
        next = i + 1;
    }

    private ArrowBuf body(StreamMessages.Header header) throws IOException {
        channel.position(header.offset() + header.metadataLength());
        bytesRead += header.metadataLength() + header.bodyLength();
        return MessageSerializer.readMessageBody(new ReadChannel(channel), header.bodyLength(), allocator);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
        if (next >= offsets.size()) {
            return false;
        }
        load(next);
        return true;
    }

    @Override
    public long bytesRead() {
        return bytesRead;
    }

    @Override
    protected void closeReadSource() throws IOException {
        channel.close();
    }
}
