package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.planner.Param;
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

    /** What {@code --format}'s help says of the format after its name, in parentheses ("Arrow IPC files"), if any. */
    default Optional<String> helpNote() {
        return Optional.empty();
    }

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
     * Why a result of this format has no row groups or record batches to size (the words after "Cannot use
     * --row-group-size with format NAME: "), or empty when it has.
     */
    default Optional<String> whyNoRowGroups() {
        return Optional.empty();
    }

    /**
     * The line refusing {@code compression} in this format ({@link Compression#refusedBy}), or empty when the
     * format writes with it.
     */
    default Optional<String> refusal(Compression compression) {
        return Optional.empty();
    }

    /**
     * The one line refusing the first option of {@code settings} this format cannot honour (the row layout, the
     * codec, the row-group size, the encoding, in that order), or empty when it writes them all. A request is
     * checked against it once, when it is described; a writer is never handed an option its format refused.
     */
    default Optional<String> refusal(WriteSettings settings) {
        if (settings.rowLayout() == RowLayout.NESTED && whyRowsStayFlat().isPresent()) {
            return Optional.of("Cannot use " + Param.ROW_LAYOUT.given("RowLayout.NESTED", "nested") + " with format "
                    + name() + ": " + whyRowsStayFlat().get() + "; nested rows are for Parquet readers (Spark,"
                    + " DuckDB, polars); add " + parquet());
        }
        Optional<String> codec = refusal(settings.compression());
        if (codec.isPresent()) {
            return codec;
        }
        if (settings.givenRowGroupBytes().isPresent() && whyNoRowGroups().isPresent()) {
            return Optional.of("Cannot use " + Param.ROW_GROUP_SIZE.named() + " with format " + name() + ": "
                    + whyNoRowGroups().get());
        }
        if (settings.byteStreamSplit() && !splitsFloatStreams()) {
            return Optional.of("Cannot use " + Param.ENCODING.given("true", "byte-stream-split") + " with format "
                    + name() + ": it is a Parquet encoding; add " + parquet());
        }
        return Optional.empty();
    }

    /** What a refusal of a Parquet-only option offers instead. */
    private static String parquet() {
        return Param.FORMAT.given("OutputFormat.PARQUET", "parquet");
    }
}
