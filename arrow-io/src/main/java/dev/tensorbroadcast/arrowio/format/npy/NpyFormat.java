package dev.tensorbroadcast.arrowio.format.npy;

import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.planner.Param;
import java.util.Optional;

/**
 * A {@code .npy} file: one array, read whole ({@code arrowio.source.NpyReader}) and written by {@code export} and
 * {@code reduce}; never one file of a dataset.
 */
public record NpyFormat() implements TensorFileFormat {
    private static final long serialVersionUID = 1L;
    /** What a refusal of a dataset's file option offers instead of a {@code .npy}. */
    public static final String INSTEAD =
            ", or write a dataset directory with " + Param.FORMAT.given("ARROW or PARQUET", "arrow or parquet");

    @Override
    public String name() {
        return "npy";
    }

    @Override
    public String extension() {
        return ".npy";
    }

    @Override
    public String description() {
        return ".npy";
    }

    @Override
    public byte[] magic() {
        return new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    }

    @Override
    public Optional<String> whyRowsStayFlat() {
        return Optional.of("it writes one array");
    }

    @Override
    public Optional<String> whyNoRowGroups() {
        return Optional.of("a .npy file is one array, without row groups or record batches; drop "
                + Param.ROW_GROUP_SIZE.named() + INSTEAD);
    }

    /** A {@code .npy} is one uncompressed array: every codec is refused, with the level given. */
    @Override
    public Optional<String> refusal(Compression compression) {
        return compression.codec() == OutputCompression.NONE
                ? Optional.empty()
                : Optional.of(compression.refusedBy(
                        name(),
                        compression.toString(),
                        "a .npy file is written" + " uncompressed; drop " + Param.COMPRESSION.named() + INSTEAD));
    }
}
