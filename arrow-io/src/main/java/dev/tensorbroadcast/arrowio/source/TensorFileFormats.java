package dev.tensorbroadcast.arrowio.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowIpcFormat;
import dev.tensorbroadcast.arrowio.format.npy.NpyFormat;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetFormat;
import dev.tensorbroadcast.arrowio.format.zarr.ZarrFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The one registry of file formats: the built-in ones, then those a jar on the class path names in
 * {@code META-INF/services/dev.tensorbroadcast.arrowio.format.TensorFileFormat}, then those {@link #register}ed
 * while the JVM runs. Adding a format is its package and one line here (or its service entry).
 */
public final class TensorFileFormats {
    private static final List<TensorFileFormat> BUILT_IN =
            List.of(new ArrowIpcFormat(), new ParquetFormat(), new NpyFormat(), new ZarrFormat());
    private static final List<TensorFileFormat> LOADED = loaded();
    private static final List<TensorFileFormat> REGISTERED = new CopyOnWriteArrayList<>();

    private TensorFileFormats() {}

    private static List<TensorFileFormat> loaded() {
        List<TensorFileFormat> formats = new ArrayList<>();
        for (TensorFileFormat format :
                ServiceLoader.load(TensorFileFormat.class, TensorFileFormats.class.getClassLoader())) {
            formats.add(format);
        }
        return List.copyOf(formats);
    }

    /** Every format, the built-in ones first, in a fixed order. */
    public static List<TensorFileFormat> all() {
        List<TensorFileFormat> all = new ArrayList<>(BUILT_IN);
        all.addAll(LOADED);
        all.addAll(REGISTERED);
        return List.copyOf(all);
    }

    /** The formats a dataset's files can be in. */
    public static List<DatasetFileFormat> datasetFormats() {
        return all().stream()
                .filter(DatasetFileFormat.class::isInstance)
                .map(DatasetFileFormat.class::cast)
                .toList();
    }

    /** The formats that write one chunked N-d array (Zarr). */
    public static List<ArrayFileFormat> arrayFormats() {
        return all().stream()
                .filter(ArrayFileFormat.class::isInstance)
                .map(ArrayFileFormat.class::cast)
                .toList();
    }

    /** The format named {@code name} (case and surrounding blanks ignored). */
    public static Optional<TensorFileFormat> byName(String name) {
        String key = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return all().stream().filter(format -> format.name().equals(key)).findFirst();
    }

    /** The dataset format named {@code name} (case and surrounding blanks ignored). */
    public static Optional<DatasetFileFormat> datasetFormat(String name) {
        return byName(name).filter(DatasetFileFormat.class::isInstance).map(DatasetFileFormat.class::cast);
    }

    /** The dataset format of a file whose first bytes are {@code head}. */
    public static Optional<DatasetFileFormat> forFile(byte[] head) {
        return datasetFormats().stream()
                .filter(format -> format.recognises(head))
                .findFirst();
    }

    /** The dataset format whose files end in {@code fileName}'s extension. */
    public static Optional<DatasetFileFormat> forFileName(String fileName) {
        return datasetFormats().stream()
                .filter(format -> fileName.endsWith(format.extension()))
                .findFirst();
    }

    /** How many first bytes of a file {@link #forFile} needs: the longest magic of the dataset formats. */
    public static int headBytes() {
        return datasetFormats().stream()
                .mapToInt(format -> format.magic().length)
                .max()
                .orElse(0);
    }

    /**
     * Adds {@code format} until the returned registration is closed: for a format that comes with no jar of its own
     * (a test's). A name already taken is refused.
     */
    public static Registration register(TensorFileFormat format) {
        requireNonNull(format, "format is null");
        if (byName(format.name()).isPresent()) {
            throw new IllegalArgumentException("a format named '" + format.name() + "' is registered already");
        }
        REGISTERED.add(format);
        return () -> REGISTERED.remove(format);
    }

    /** A format added by {@link #register}; closing it removes the format. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
