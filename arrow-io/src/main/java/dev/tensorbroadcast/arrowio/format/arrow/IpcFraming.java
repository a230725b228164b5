package dev.tensorbroadcast.arrowio.format.arrow;

import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.arrow.flatbuf.Message;

/**
 * Walks the messages of an Arrow IPC stream held in memory and checks that each one's metadata and body lengths fit
 * in the bytes that follow. Arrow Java allocates a message's metadata on the heap at its declared length before
 * reading it, so a lying length would otherwise cost an unbounded allocation.
 */
final class IpcFraming {
    private static final int CONTINUATION = 0xFFFFFFFF;

    private IpcFraming() {}

    static void checkStream(String file, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int pos = 0;
        while (pos < bytes.length) {
            int start = pos;
            if (bytes.length - pos < 4) {
                throw truncated(file, start);
            }
            int length = in.getInt(pos);
            pos += 4;
            boolean continued = length == CONTINUATION;
            if (continued) {
                if (bytes.length - pos < 4) {
                    throw truncated(file, start);
                }
                length = in.getInt(pos);
                pos += 4;
            }
            if (length == 0) {
                return;
            }
            if (start == 0 && !continued && (length < 0 || length > bytes.length - pos)) {
                // streams since Arrow 0.15 start with the continuation marker; this is likely no Arrow at all
                throw notArrow(file);
            }
            if (length < 0 || length > bytes.length - pos) {
                throw new SourceFormatException(
                        file,
                        "the Arrow stream's message at byte " + start + " declares "
                                + Integer.toUnsignedString(length) + " bytes of metadata but " + (bytes.length - pos)
                                + " bytes remain");
            }
            long body;
            try {
                ByteBuffer metadata =
                        ByteBuffer.wrap(bytes, pos, length).slice().order(ByteOrder.LITTLE_ENDIAN);
                body = Message.getRootAsMessage(metadata).bodyLength();
            } catch (RuntimeException e) {
                throw new SourceFormatException(
                        file, "the Arrow stream's message at byte " + start + " has malformed metadata", e);
            }
            pos += length;
            if (body < 0 || body > bytes.length - pos) {
                throw new SourceFormatException(
                        file,
                        "the Arrow stream's message at byte " + start + " declares a " + body + "-byte body but "
                                + (bytes.length - pos) + " bytes remain");
            }
            pos += (int) body;
        }
    }

    private static SourceFormatException notArrow(String file) {
        return new SourceFormatException(
                file,
                "it is neither a .npy file, an Arrow IPC file or stream nor a Parquet"
                        + " file: it starts with neither \\x93NUMPY, ARROW1, an Arrow stream message nor PAR1; a directory of"
                        + " Arrow IPC or Parquet files is read as a dataset");
    }

    private static SourceFormatException truncated(String file, int start) {
        return new SourceFormatException(
                file, "the Arrow stream is truncated: it ends inside the message header at " + "byte " + start);
    }
}
