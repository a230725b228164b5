package dev.tensorbroadcast.arrowio.format;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Optional;

/**
 * A file format tensors are written in or read from: its name (as {@code --format} takes it), its extension, how
 * a file of it is recognised, and what a row layout needs. A format that a dataset's files can be in is a
 * {@link DatasetFileFormat}, which adds the writer and the readers. {@code source.TensorFileFormats} finds them all.
 *
 * <p>A format is a value without state (a record with no components): it travels to tasks inside a request and is
 * equal to every other instance of its class.
 */
public interface TensorFileFormat extends Serializable {
    /** The name {@code --format} and the manifest use: {@code arrow}, {@code parquet}, {@code npy}. */
    String name();

    /** The file name extension, with its dot. */
    String extension();

    /** What a user calls it in a message: "Arrow IPC", "Parquet". */
    String description();

    /** The bytes every file of the format starts with. */
    byte[] magic();

    /** Whether a file whose first bytes are {@code head} (fewer when the file is shorter) is of this format. */
    default boolean recognises(byte[] head) {
        byte[] magic = magic();
        return head.length >= magic.length && Arrays.equals(head, 0, magic.length, magic, 0, magic.length);
    }

    /**
     * Why rows of this format cannot be nested lists, one level per dimension (the message's words after
     * "Cannot use --row-layout nested with format NAME: "), or empty when they can.
     */
    Optional<String> whyRowsStayFlat();

    /** Whether the format can store float values BYTE_STREAM_SPLIT (a Parquet encoding). */
    default boolean splitsFloatStreams() {
        return false;
    }

    /**
     * The one line refusing {@code compression} in this format ({@link Compression#refusedBy}), or empty when the
     * format writes with it. A request is checked against it once, when it is described; a writer is never handed
     * a codec its format refused.
     */
    default Optional<String> refusal(Compression compression) {
        return Optional.empty();
    }
}
