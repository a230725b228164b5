package dev.tensorbroadcast.arrowio.format.npy;

import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import java.util.Optional;

/**
 * A {@code .npy} file: one array, read whole ({@code arrowio.source.NpyReader}) and written by {@code export} and
 * {@code reduce}; never one file of a dataset.
 */
public record NpyFormat() implements TensorFileFormat {
    private static final long serialVersionUID = 1L;

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
}
