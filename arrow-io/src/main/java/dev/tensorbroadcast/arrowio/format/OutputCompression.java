package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.planner.EnumNames;

/**
 * The codecs of {@code --compression}, by the names it takes; each format turns one into its own (an Arrow IPC body
 * codec, a Parquet page codec, a Zarr chunk codec) and refuses those it has not
 * ({@link TensorFileFormat#refusal}). With its level, a codec is a {@link Compression}.
 */
public enum OutputCompression {
    NONE("none"),
    LZ4("lz4"),
    ZSTD("zstd"),
    GZIP("gzip");

    private final String codecName;

    OutputCompression(String codecName) {
        this.codecName = codecName;
    }

    public String codecName() {
        return codecName;
    }

    public static OutputCompression parse(String text) {
        return EnumNames.parse(values(), OutputCompression::codecName, text, "Cannot use compression");
    }

    @Override
    public String toString() {
        return codecName;
    }
}
