package dev.tensorbroadcast.arrowio.format;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Compresses whole zstd frames (content size in the header, no checksum) of one level, feeding the encoder one byte
 * less than zstd's 128 KiB block at a time and ending a block after each piece.
 *
 * <p>Why: zstd 1.5.7 (zstd-jni 1.5.7-x, the version Spark pins) splits every full 128 KiB block of levels 3 to 7
 * before matching, at boundaries it guesses by sampling byte statistics. A broadcast's output is a period (a source
 * row) repeated, and the sampler cuts it into pieces of a few KiB that each pay a block header and their own
 * tables: 128 MiB of a repeated 16 KiB row of random floats compresses at level 3 to 195 KB in one call, 39 KB
 * through tensorstore's streaming encoder and 27 KB as zstd 1.5.6 did. A block under 128 KiB is never pre-split, so
 * these frames are 1.5.6's (27 KB there), and a repeated block costs less time too. On data that does not repeat
 * the frames are about 1-2% larger than a pre-split one-shot frame. Inputs under one piece give the bytes of
 * {@link Zstd#compress(byte[], int)}.
 *
 * <p>Not thread-safe: one per writer; closing it frees the native context.
 */
public final class ZstdFrames implements AutoCloseable {
    /** The most bytes fed at once: under zstd's 128 KiB block, which is never pre-split. */
    static final int PIECE = (128 << 10) - 1;

    private final int level;
    private final ZstdCompressCtx context;
    /** Where heap input is copied a piece at a time, and the compressed bytes of a piece come out. */
    private ByteBuffer in;

    private ByteBuffer out;

    /** Frames at {@code level}, 1 to 22. */
    public ZstdFrames(int level) {
        if (level < 1 || level > Zstd.maxCompressionLevel()) {
            throw new IllegalArgumentException(
                    "Cannot compress at zstd level " + level + ": zstd takes 1 to " + Zstd.maxCompressionLevel());
        }
        this.level = level;
        this.context = new ZstdCompressCtx();
        context.setLevel(level);
        context.setChecksum(false);
        context.setContentSize(true);
    }

    public int level() {
        return level;
    }

    /** The most bytes {@link #compress(ByteBuffer, ByteBuffer)} writes for {@code length} bytes of input. */
    public static long bound(long length) {
        // a flushed piece may end in an empty block header more than a one-shot frame has
        return Zstd.compressBound(length) + 3 * (length / PIECE + 2);
    }

    /** The frame of {@code length} bytes of {@code source} from {@code offset}. */
    public byte[] compress(byte[] source, int offset, int length) {
        if (in == null) {
            in = ByteBuffer.allocateDirect(PIECE);
            out = ByteBuffer.allocateDirect(Math.toIntExact(Zstd.compressBound(PIECE) + 64));
        }
        byte[] frame = new byte[Math.toIntExact(Math.min(Integer.MAX_VALUE - 8, Math.max(64, length / 64)))];
        int written = 0;
        context.setPledgedSrcSize(length);
        int at = offset;
        int end = offset + length;
        do {
            int piece = Math.min(PIECE, end - at);
            in.clear();
            in.put(source, at, piece).flip();
            at += piece;
            EndDirective directive = at == end ? EndDirective.END : EndDirective.FLUSH;
            boolean done;
            do {
                out.clear();
                done = context.compressDirectByteBufferStream(out, in, directive);
                out.flip();
                int made = out.remaining();
                if (written + made > frame.length) {
                    frame = Arrays.copyOf(frame, Math.max(written + made, frame.length * 2));
                }
                out.get(frame, written, made);
                written += made;
            } while (!done || in.hasRemaining());
        } while (at < end);
        return Arrays.copyOf(frame, written);
    }

    /**
     * Compresses the bytes of {@code source} from its position to its limit into {@code target} from its position
     * (both direct); returns the frame's length and leaves {@code target}'s position after it. {@code target} must
     * have {@link #bound} bytes remaining.
     */
    public int compress(ByteBuffer source, ByteBuffer target) {
        if (!source.isDirect() || !target.isDirect()) {
            throw new IllegalArgumentException("Cannot compress heap buffers in place: both must be direct");
        }
        int start = target.position();
        int end = source.limit();
        context.setPledgedSrcSize(source.remaining());
        do {
            int at = source.position();
            source.limit(Math.min(end, at + PIECE));
            EndDirective directive = source.limit() == end ? EndDirective.END : EndDirective.FLUSH;
            while (!context.compressDirectByteBufferStream(target, source, directive) || source.hasRemaining()) {
                if (!target.hasRemaining()) {
                    throw new IllegalArgumentException("Cannot compress " + (end - at) + " bytes: "
                            + (target.position() - start) + " bytes of room were too few");
                }
            }
        } while (source.position() < end);
        source.limit(end);
        return target.position() - start;
    }

    @Override
    public void close() {
        context.close();
    }
}
