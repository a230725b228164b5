package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.format.DatasetChunk;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.HadoopChannel;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.ipc.message.MessageMetadataResult;
import org.apache.arrow.vector.ipc.message.MessageSerializer;

/**
 * The record batches of one Arrow IPC file or stream (told apart by the {@code ARROW1} magic), loaded by number into
 * one root: a file's by its footer's blocks, a stream's by the offsets its message headers gave
 * ({@link StreamMessages}), so neither reads a body it does not load.
 */
final class IpcBatches implements AutoCloseable {
    private static final byte[] FILE_MAGIC = {'A', 'R', 'R', 'O', 'W', '1'};

    private final ArrowReader reader;
    private final List<ArrowBlock> blocks;
    private final boolean stream;
    /** A stream's record batch headers as indexing read them, so planning reads each once; empty otherwise. */
    private final List<RecordBatch> headers;

    private IpcBatches(ArrowReader reader, List<ArrowBlock> blocks, boolean stream, List<RecordBatch> headers) {
        this.reader = reader;
        this.blocks = List.copyOf(blocks);
        this.stream = stream;
        this.headers = List.copyOf(headers);
    }

    /** Whether the file is an Arrow IPC stream rather than a file (which starts with {@code ARROW1}). */
    static boolean isStream(HadoopChannel channel) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(FILE_MAGIC.length);
        channel.position(0);
        while (head.hasRemaining() && channel.read(head) > 0) {
            // reads on until the magic's length or the end of the file
        }
        return !Arrays.equals(head.array(), 0, head.position(), FILE_MAGIC, 0, FILE_MAGIC.length);
    }

    /**
     * Opens the file, reading a file's footer or a stream's every message header: for planning.
     */
    static IpcBatches index(String name, HadoopChannel channel, BufferAllocator allocator) throws IOException {
        if (!isStream(channel)) {
            ArrowFileReader file = new ArrowFileReader(channel, allocator, CommonsCompressionFactory.INSTANCE);
            return new IpcBatches(file, file.getRecordBlocks(), false, List.of());
        }
        StreamMessages.Index index = StreamMessages.index(name, channel);
        List<ArrowBlock> blocks = new ArrayList<>();
        List<RecordBatch> headers = new ArrayList<>();
        for (StreamMessages.Header header : index.batches()) {
            blocks.add(new ArrowBlock(header.offset(), header.metadataLength(), header.bodyLength()));
            headers.add(header.recordBatch());
        }
        return new IpcBatches(new StreamBatchReader(name, channel, offsets(blocks), allocator), blocks, true, headers);
    }

    /** Opens the file for its schema only: a file's footer, a stream's first message. */
    static IpcBatches schemaOnly(String name, HadoopChannel channel, BufferAllocator allocator) throws IOException {
        if (!isStream(channel)) {
            return new IpcBatches(
                    new ArrowFileReader(channel, allocator, CommonsCompressionFactory.INSTANCE),
                    List.of(),
                    false,
                    List.of());
        }
        return new IpcBatches(new StreamBatchReader(name, channel, List.of(), allocator), List.of(), true, List.of());
    }

    /**
     * Opens {@code part}'s file for a task: a stream's batches are where planning found them (the part's chunk
     * offsets), so its headers are not read again.
     */
    static IpcBatches open(DatasetPart part, HadoopChannel channel, BufferAllocator allocator) throws IOException {
        String name = part.path();
        if (!isStream(channel)) {
            ArrowFileReader file = new ArrowFileReader(channel, allocator, CommonsCompressionFactory.INSTANCE);
            List<ArrowBlock> blocks = file.getRecordBlocks();
            if (blocks.size() != part.chunks().size()) {
                file.close();
                throw new SourceFormatException(
                        name,
                        "it has " + blocks.size() + " record batches, not the "
                                + part.chunks().size() + " it had when the dataset was opened");
            }
            return new IpcBatches(file, blocks, false, List.of());
        }
        List<ArrowBlock> blocks = new ArrayList<>();
        for (DatasetChunk chunk : part.chunks()) {
            if (chunk.offset() < 0) {
                throw new SourceFormatException(
                        name, "it is an Arrow IPC stream now but was a file when the" + " dataset was opened");
            }
            // only the offsets are used to load
            blocks.add(new ArrowBlock(chunk.offset(), 0, 0));
        }
        return new IpcBatches(
                new StreamBatchReader(name, channel, offsets(blocks), allocator), blocks, true, List.of());
    }

    private static List<Long> offsets(List<ArrowBlock> blocks) {
        return blocks.stream().map(ArrowBlock::getOffset).toList();
    }

    boolean stream() {
        return stream;
    }

    VectorSchemaRoot root() throws IOException {
        return reader.getVectorSchemaRoot();
    }

    /** The dictionaries of the file's dictionary-encoded columns, loaded with the root. */
    DictionaryProvider dictionaries() throws IOException {
        reader.getVectorSchemaRoot();
        return reader;
    }

    List<ArrowBlock> blocks() {
        return blocks;
    }

    /** Record batch {@code i}'s header, read from the file (planning only; it reads no body). */
    RecordBatch header(String name, HadoopChannel channel, int i) throws IOException {
        if (!headers.isEmpty()) {
            return headers.get(i);
        }
        ArrowBlock block = blocks.get(i);
        channel.position(block.getOffset());
        MessageMetadataResult message = MessageSerializer.readMessage(new ReadChannel(channel));
        RecordBatch batch =
                message == null ? null : (RecordBatch) message.getMessage().header(new RecordBatch());
        if (batch == null) {
            throw new SourceFormatException(
                    name, "the block at offset " + block.getOffset() + " is not a record batch");
        }
        return batch;
    }

    /** Loads record batch {@code i} into {@link #root()}. */
    void load(int i) throws IOException {
        if (reader instanceof ArrowFileReader file) {
            file.loadRecordBatch(blocks.get(i));
        } else {
            ((StreamBatchReader) reader).load(i);
        }
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
