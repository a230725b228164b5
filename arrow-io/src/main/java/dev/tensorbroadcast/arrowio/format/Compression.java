package dev.tensorbroadcast.arrowio.format;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import java.io.Serializable;

/**
 * The compression of a dataset's files, the one form of {@code --compression}: a codec and, for zstd, a level. The
 * level is checked here and nowhere else.
 *
 * @param level the zstd level, 1 (fastest) to 22 (smallest), or gzip's, 1 to 9 (gzip a Zarr array's codec only), or
 *     0 for the codec's own default (zstd's is 3, gzip's 6)
 */
public record Compression(OutputCompression codec, int level) implements Serializable {
    public static final Compression NONE = new Compression(OutputCompression.NONE, 0);
    private static final String EXPECTED =
            "; expected none, lz4, zstd, zstd:1 to zstd:22, gzip or gzip:1 to" + " gzip:9";

    public Compression {
        requireNonNull(codec, "codec is null");
        if (level != 0
                && (codec == OutputCompression.ZSTD
                        ? level < 1 || level > 22
                        : codec != OutputCompression.GZIP || level < 1 || level > 9)) {
            throw new InvalidRequestException("Cannot use compression '" + codec + ":" + level + "': "
                    + (codec == OutputCompression.ZSTD
                            ? "zstd levels go from 1 (fastest) to 22 (smallest)"
                            : codec == OutputCompression.GZIP
                                    ? "gzip levels go from 1 (fastest) to 9 (smallest)"
                                    : codec + " takes no level")
                    + EXPECTED);
        }
    }

    /**
     * The line refusing this compression in format {@code formatName}: "Cannot use --compression SHOWN with format
     * NAME: REASON", where {@code shown} is the part of it the format refuses (the codec, or all of it).
     */
    public String refusedBy(String formatName, String shown, String reason) {
        return "Cannot use " + Param.COMPRESSION.given(shown, shown) + " with format " + formatName + ": " + reason;
    }

    /** The codec at its default level. */
    public static Compression of(OutputCompression codec) {
        return new Compression(codec, 0);
    }

    /** {@code none}, {@code lz4}, {@code zstd} or {@code zstd:9}, as the command line and the manifest say it. */
    public static Compression parse(String text) {
        requireNonNull(text, "text is null");
        int colon = text.indexOf(':');
        OutputCompression codec = OutputCompression.parse(colon < 0 ? text : text.substring(0, colon));
        if (colon < 0) {
            return of(codec);
        }
        String level = text.substring(colon + 1).strip();
        int parsed;
        try {
            parsed = Integer.parseInt(level);
        } catch (NumberFormatException e) {
            parsed = 0;
        }
        if (parsed == 0) {
            throw new InvalidRequestException(
                    "Cannot use compression '" + text + "': '" + level + "' is not a level" + EXPECTED);
        }
        return new Compression(codec, parsed);
    }

    /** {@code zstd}, or {@code zstd:9} with a level. */
    @Override
    public String toString() {
        return level == 0 ? codec.codecName() : codec.codecName() + ":" + level;
    }
}
