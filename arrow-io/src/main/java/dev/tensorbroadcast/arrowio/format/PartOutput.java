package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.util.function.LongSupplier;
import org.apache.parquet.io.OutputFile;

/**
 * Where one dataset file is written, open already and closed by the caller after the writer is done (so it can read
 * the final size and checksum): a stream or a channel, each offered as the other for the writer that wants it.
 */
public final class PartOutput {
    private final OutputStream stream;
    private final WritableByteChannel channel;
    private final LongSupplier position;
    private final String name;

    private PartOutput(OutputStream stream, WritableByteChannel channel, LongSupplier position, String name) {
        this.stream = stream;
        this.channel = channel;
        this.position = requireNonNull(position, "position is null");
        this.name = requireNonNull(name, "name is null");
    }

    /** {@code position} counts the bytes written to {@code stream}. */
    public static PartOutput of(OutputStream stream, LongSupplier position, String name) {
        return new PartOutput(requireNonNull(stream, "stream is null"), null, position, name);
    }

    /** {@code position} counts the bytes written to {@code channel}. */
    public static PartOutput of(WritableByteChannel channel, LongSupplier position, String name) {
        return new PartOutput(null, requireNonNull(channel, "channel is null"), position, name);
    }

    public WritableByteChannel channel() {
        return channel != null ? channel : Channels.newChannel(stream);
    }

    public OutputStream stream() {
        return stream != null ? stream : Channels.newOutputStream(channel);
    }

    /** The bytes written so far. */
    public long position() {
        return position.getAsLong();
    }

    /** The file's name, for messages. */
    public String name() {
        return name;
    }

    /** The output as a Parquet file that leaves closing to the caller. */
    public OutputFile parquetFile() {
        return StreamOutputFile.borrowing(stream(), position, name);
    }
}
