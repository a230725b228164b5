package dev.tensorbroadcast.job.dataset;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.ElementBatch;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.job.base.DatasetException;
import dev.tensorbroadcast.job.base.LocalFiles;
import dev.tensorbroadcast.job.commit.OutputOverlap;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.sink.NpyWriter;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Writes a complete dataset to one {@code .npy} in the dtype numpy itself uses: {@code |b1}, integers, {@code <f2},
 * floats, {@code <c8}/{@code <c16}, and {@code <U<n>} (UTF-32, {@code n} the longest string in code points) for
 * strings. numpy has no bfloat16, so bfloat16 is written as its raw bits, {@code <u2}, with a note; numpy has no
 * nulls, so a dataset with null elements is refused, naming their count.
 *
 * <p>The array is written to a hidden temporary file next to the target and renamed over it only when complete, so
 * an interrupted or refused export never leaves a partial {@code .npy}.
 */
public final class NpyExporter {
    public static final long DEFAULT_MAX_BYTES = 2L << 30;
    private static final int CHUNK_BYTES = 1 << 20;

    private final DatasetDirectory dir;
    private final long maxBytes;

    public NpyExporter(DatasetDirectory dir, long maxBytes) {
        this.dir = requireNonNull(dir, "dir is null");
        this.maxBytes = maxBytes;
    }

    /** What was written: the file, numpy's dtype and shape, the file size, and notes for the user. */
    public record Result(Path file, String descr, Shape shape, long bytes, List<String> notes) {
        public Result {
            notes = List.copyOf(notes);
        }
    }

    public Result export(Path target, boolean overwrite) throws IOException {
        requireNonNull(target, "target is null");
        // the .npy, or its temporary file beside it, inside the dataset would replace or add to what is read
        OutputOverlap.requireApart(
                target.toString(),
                new org.apache.hadoop.fs.Path("file:" + target.toAbsolutePath().normalize()),
                dir.name(),
                dir.path());
        List<String> incomplete = dir.incompleteness();
        if (!incomplete.isEmpty()) {
            throw new DatasetException("Cannot export " + dir.name() + ": the dataset is incomplete ("
                    + String.join("; ", incomplete) + "); only a complete dataset can be exported");
        }
        Manifest manifest = dir.manifest().orElseThrow();
        DType dtype = DatasetFiles.dtype(manifest);
        Shape shape = ManifestShapes.shape(manifest.shape());
        if (Files.isDirectory(target)) {
            throw new DatasetException(
                    "Cannot export to " + target + ": it is a directory; give the path of a .npy" + " file");
        }
        if (Files.exists(target) && !overwrite) {
            throw new DatasetException("Cannot export to " + target + ": the file exists; pass "
                    + Param.OVERWRITE.given("true", null) + " to replace it");
        }
        Path parent = target.toAbsolutePath().getParent();
        if (!Files.isDirectory(parent)) {
            throw new DatasetException("Cannot export to " + target + ": directory " + parent + " does not exist");
        }
        List<String> notes = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            int itemBytes;
            String descr;
            if (dtype == DType.STRING) {
                int longest = longestString(manifest, allocator);
                itemBytes = Math.multiplyExact(Math.max(1, longest), 4);
                descr = "<U" + itemBytes / 4;
            } else {
                itemBytes = dtype == DType.BOOL ? 1 : dtype.byteWidth();
                descr = descr(dtype);
            }
            if (dtype == DType.BFLOAT16) {
                notes.add(
                        "numpy has no bfloat16: wrote the raw bits as uint16 (<u2); view them with"
                                + " a.view(ml_dtypes.bfloat16), or as float32 with (a.astype(np.uint32) << 16).view(np.float32)");
            }
            long dataBytes;
            try {
                dataBytes = Math.multiplyExact(shape.elements(), itemBytes);
            } catch (ArithmeticException e) {
                dataBytes = Long.MAX_VALUE;
            }
            if (dataBytes > maxBytes) {
                throw new DatasetException("Cannot export " + dir.name() + " to .npy: the array would be " + dataBytes
                        + " bytes, more than the limit of " + maxBytes + " bytes; pass "
                        + Param.mention("a larger maxBytes", "--force") + " to write it anyway");
            }
            byte[] header = NpyWriter.header(descr, shape);
            Path temp = LocalFiles.createTemp("export to", target, parent);
            try {
                long nulls;
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temp), CHUNK_BYTES)) {
                    out.write(header);
                    nulls = writeData(manifest, allocator, itemBytes, out);
                }
                if (nulls > 0) {
                    throw new DatasetException("Cannot export " + dir.name() + " to .npy: " + nulls + " of its "
                            + shape.elements() + " elements are null and numpy arrays have no nulls; read the"
                            + " dataset with pyarrow to keep them");
                }
                long size = Files.size(temp);
                if (size != header.length + dataBytes) {
                    throw new IOException(
                            "wrote " + size + " bytes to " + temp + ", expected " + (header.length + dataBytes));
                }
                LocalFiles.move("export to", temp, target, overwrite);
                return new Result(target, descr, shape, size, notes);
            } finally {
                Files.deleteIfExists(temp);
            }
        }
    }

    /** numpy's dtype string for a fixed-width {@code dtype}; bfloat16, which numpy lacks, as its bits. */
    public static String descr(DType dtype) {
        return switch (dtype) {
            case BOOL -> "|b1";
            case INT8 -> "|i1";
            case UINT8 -> "|u1";
            case INT16 -> "<i2";
            case UINT16, BFLOAT16 -> "<u2";
            case INT32 -> "<i4";
            case UINT32 -> "<u4";
            case INT64 -> "<i8";
            case UINT64 -> "<u8";
            case FLOAT16 -> "<f2";
            case FLOAT32 -> "<f4";
            case FLOAT64 -> "<f8";
            case COMPLEX64 -> "<c8";
            case COMPLEX128 -> "<c16";
            case STRING -> throw new IllegalArgumentException("a string descr depends on the longest string");
        };
    }

    /** The longest string in code points: UTF-8 bytes that do not continue a character. */
    private int longestString(Manifest manifest, BufferAllocator allocator) throws IOException {
        int longest = 0;
        for (DatasetFile file : manifest.files()) {
            try (DatasetFileReader reader = open(manifest, file, allocator)) {
                for (ElementBatch batch = next(reader, file); batch != null; batch = next(reader, file)) {
                    ArrowBuf offsets = batch.offsets();
                    ArrowBuf data = batch.data();
                    for (int i = 0; i < batch.elements(); i++) {
                        int end = offsets.getInt(4L * (i + 1));
                        int chars = 0;
                        for (int at = offsets.getInt(4L * i); at < end; at++) {
                            chars += (data.getByte(at) & 0xC0) == 0x80 ? 0 : 1;
                        }
                        longest = Math.max(longest, chars);
                    }
                }
            }
        }
        return longest;
    }

    /**
     * Writes every element in row order (each file's reader checks that it holds its listed rows, and the manifest
     * that the files hold all rows); returns the number of nulls, after which nothing more is written.
     */
    /**
     * An array's values, slab by slab of the first dim through its reader: already C order and little endian, one
     * byte a bool, as numpy's .npy stores them; an array has no nulls.
     */
    private void writeArray(ArrayFileFormat format, int itemBytes, OutputStream out) throws IOException {
        ArrayReader reader =
                format.open(dir.fileSystem(), dir.resolve(format.metadataName()).getParent());
        long[] shape = reader.layout().shape().dims();
        if (shape.length == 0) {
            out.write(reader.readSlab(0, 1));
            return;
        }
        long inner = 1;
        for (int i = 1; i < shape.length; i++) {
            inner *= shape[i];
        }
        long perRead = Math.max(1, CHUNK_BYTES * 8L / Math.max(1, inner * itemBytes));
        for (long first = 0; first < shape[0]; first += perRead) {
            out.write(reader.readSlab(first, Math.min(perRead, shape[0] - first)));
        }
    }

    private long writeData(Manifest manifest, BufferAllocator allocator, int itemBytes, OutputStream out)
            throws IOException {
        Optional<ArrayFileFormat> array = TensorFileFormats.arrayFormats().stream()
                .filter(format -> format.name().equals(manifest.format()))
                .findFirst();
        if (array.isPresent()) {
            writeArray(array.get(), itemBytes, out);
            return 0;
        }
        byte[] chunk = new byte[CHUNK_BYTES];
        long nulls = 0;
        for (DatasetFile file : manifest.files()) {
            try (DatasetFileReader reader = open(manifest, file, allocator)) {
                for (ElementBatch batch = next(reader, file); batch != null; batch = next(reader, file)) {
                    nulls += batch.nullCount();
                    if (nulls == 0) {
                        writeBatch(batch, itemBytes, chunk, out);
                    }
                }
            }
        }
        return nulls;
    }

    private static void writeBatch(ElementBatch batch, int itemBytes, byte[] chunk, OutputStream out)
            throws IOException {
        int elements = batch.elements();
        switch (batch.dtype()) {
            case BOOL -> {
                int filled = 0;
                for (int i = 0; i < elements; i++) {
                    chunk[filled++] = (byte) (batch.bit(i) ? 1 : 0);
                    if (filled == chunk.length) {
                        out.write(chunk, 0, filled);
                        filled = 0;
                    }
                }
                out.write(chunk, 0, filled);
            }
            case STRING -> writeStrings(batch, itemBytes, chunk, out);
            default -> {
                long total = (long) elements * itemBytes;
                for (long at = 0; at < total; at += chunk.length) {
                    int length = (int) Math.min(chunk.length, total - at);
                    batch.values().getBytes(at, chunk, 0, length);
                    out.write(chunk, 0, length);
                }
            }
        }
    }

    /** UTF-8 to numpy's fixed-width UTF-32LE, padded with NULs to {@code itemBytes}. */
    private static void writeStrings(ElementBatch batch, int itemBytes, byte[] chunk, OutputStream out)
            throws IOException {
        ArrowBuf offsets = batch.offsets();
        ArrowBuf data = batch.data();
        int filled = 0;
        for (int i = 0; i < batch.elements(); i++) {
            if (filled + itemBytes > chunk.length) {
                out.write(chunk, 0, filled);
                filled = 0;
            }
            byte[] target = itemBytes > chunk.length ? new byte[itemBytes] : chunk;
            int base = target == chunk ? filled : 0;
            java.util.Arrays.fill(target, base, base + itemBytes, (byte) 0);
            int at = offsets.getInt(4L * i);
            int end = offsets.getInt(4L * (i + 1));
            int put = base;
            while (at < end) {
                int lead = data.getByte(at) & 0xFF;
                int length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
                int codePoint = length == 1 ? lead : lead & (0xFF >>> (length + 1));
                for (int k = 1; k < length; k++) {
                    codePoint = (codePoint << 6) | (data.getByte(at + k) & 0x3F);
                }
                at += length;
                target[put] = (byte) codePoint;
                target[put + 1] = (byte) (codePoint >>> 8);
                target[put + 2] = (byte) (codePoint >>> 16);
                put += 4;
            }
            if (target == chunk) {
                filled += itemBytes;
            } else {
                out.write(target);
            }
        }
        out.write(chunk, 0, filled);
    }

    private ElementBatch next(DatasetFileReader reader, DatasetFile file) {
        try {
            return reader.next();
        } catch (IOException | RuntimeException e) {
            throw new DatasetException("Cannot export " + dir.name() + ": cannot read " + file.path() + ": "
                    + e.getMessage() + "; run verify");
        }
    }

    private DatasetFileReader open(Manifest manifest, DatasetFile file, BufferAllocator allocator) {
        try {
            return DatasetFiles.open(dir, manifest, file, allocator);
        } catch (DatasetException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new DatasetException("Cannot export " + dir.name() + ": cannot read " + file.path() + ": "
                    + e.getMessage() + "; run verify");
        }
    }
}
