package dev.tensorbroadcast.arrowio.format.npy;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.HeapInput;
import dev.tensorbroadcast.arrowio.format.Layouts;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.npy.NpyHeaderParser.Parsed;
import dev.tensorbroadcast.arrowio.format.npy.NpyHeaderParser.PyTuple;
import dev.tensorbroadcast.planner.Shape;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a numpy {@code .npy} file (format versions 1.0, 2.0 and 3.0) into a {@link SourceTensor}.
 *
 * <p>Every count in the header is checked before anything is allocated: the header length, the element count (no
 * overflow), the data size against the bytes the file really has and against {@link SourceLimits}. A file with fewer
 * or more data bytes than its header declares is rejected. Fortran-order data is rewritten row-major; big-endian data
 * is rewritten little-endian. See {@code docs/formats.md} for the accepted dtypes.
 */
public final class NpyReader {
    /** Pass as a length when the stream's length is not known. */
    public static final long UNKNOWN_LENGTH = -1;

    /** numpy itself refuses headers over 10,000 bytes by default; this is far above anything it writes. */
    static final int MAX_HEADER_BYTES = 1 << 20;

    private static final byte[] MAGIC = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'};
    private static final Set<String> KEYS = Set.of("descr", "fortran_order", "shape");

    private final SourceLimits limits;

    public NpyReader(SourceLimits limits) {
        this.limits = requireNonNull(limits, "limits is null");
    }

    /** The magic string every {@code .npy} file starts with, {@code \x93NUMPY}; a copy. */
    public static byte[] magic() {
        return MAGIC.clone();
    }

    /** Whether {@code prefix}, the first bytes of a file (at least 6 of them), is the start of a {@code .npy} file. */
    public static boolean isNpy(byte[] prefix) {
        return prefix.length >= MAGIC.length && Arrays.equals(prefix, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    public SourceTensor read(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            return read(String.valueOf(path.getFileName()), in, Files.size(path));
        }
    }

    /** Reads from the channel's position; a {@link SeekableByteChannel}'s length is taken from it. */
    public SourceTensor read(String name, ReadableByteChannel channel, long length) throws IOException {
        long known = length;
        if (known == UNKNOWN_LENGTH && channel instanceof SeekableByteChannel seekable) {
            known = seekable.size() - seekable.position();
        }
        return read(name, Channels.newInputStream(channel), known);
    }

    /**
     * Reads a whole {@code .npy} stream; the stream is not closed.
     *
     * @param name the file name, for messages
     * @param length the stream's length in bytes, or {@link #UNKNOWN_LENGTH}
     */
    public SourceTensor read(String name, InputStream stream, long length) throws IOException {
        requireNonNull(name, "name is null");
        requireNonNull(stream, "stream is null");
        if (length < 0 && length != UNKNOWN_LENGTH) {
            throw new IllegalArgumentException("length must be 0 or more, or UNKNOWN_LENGTH, not " + length);
        }
        InputStream in = stream instanceof BufferedInputStream ? stream : new BufferedInputStream(stream, 65536);
        boolean known = length != UNKNOWN_LENGTH;
        Preamble preamble = preamble(name, in, length);
        Header header = preamble.header();
        long dataStart = preamble.dataStart();

        NpyDType type = header.type();
        Shape shape = header.shape();
        String elementType = type.describe(header.descr());
        long elements = shape.elements();
        long dataBytes = checkedProduct(name, elements, type.itemSize(), elementType);
        if (elements > SourceLimits.MAX_HEAP_BYTES) {
            throw new SourceFormatException(
                    name,
                    "the header declares " + elements + " " + elementType
                            + " elements; a heap source holds fewer than 2^31");
        }
        limits.check(
                name,
                peakBytes(header, elements, dataBytes, known),
                "the header declares " + elements + " " + elementType + " elements (" + dataBytes
                        + " bytes of data), which");
        if (known && length - dataStart != dataBytes) {
            throw new SourceFormatException(name, dataMismatch(elements, elementType, dataBytes, length - dataStart));
        }

        byte[] raw = HeapInput.read(in, (int) dataBytes, known);
        if (raw.length < dataBytes) {
            throw new SourceFormatException(name, dataMismatch(elements, elementType, dataBytes, raw.length));
        }
        long extra = HeapInput.remaining(in, 1L << 20);
        if (extra > 0) {
            throw new SourceFormatException(
                    name,
                    dataMismatch(elements, elementType, dataBytes, dataBytes + extra)
                            + (extra > 1L << 20 ? " or more" : ""));
        }
        if (header.fortranOrder() && shape.rank() > 1) {
            int rank = shape.rank();
            int[] reversed = new int[rank];
            for (int j = 0; j < rank; j++) {
                reversed[j] = rank - 1 - j;
            }
            raw = Layouts.toLogicalOrder(raw, type.itemSize(), shape.dims(), reversed);
        }
        return switch (type.kind()) {
            case FIXED -> {
                if (type.bigEndian()) {
                    Layouts.swapBytes(raw, type.swapWidth());
                }
                yield SourceTensor.fixedWidth(type.dtype(), shape, raw, null);
            }
            case BOOL -> SourceTensor.fixedWidth(type.dtype(), shape, Layouts.packBits(raw, (int) elements), null);
            case UNICODE -> NpyStrings.unicode(name, header.descr(), shape, raw, type.itemSize(), type.bigEndian());
            case BYTES -> NpyStrings.bytes(name, header.descr(), shape, raw, type.itemSize());
        };
    }

    /**
     * Where a {@code .npy}'s rows lie when they can be read in place, a few at a time, rather than onto the heap:
     * fixed-width numbers in C order (or of rank 1 or less). Empty for bool, strings and Fortran order, which need
     * the whole array converted; a malformed file, or one whose length does not match its header, is refused. The
     * stream is read up to the data, not closed.
     */
    public static java.util.Optional<NpyLayout> layout(String name, InputStream stream, long length)
            throws IOException {
        InputStream in = stream instanceof BufferedInputStream ? stream : new BufferedInputStream(stream, 65536);
        Preamble preamble = preamble(name, in, length);
        Header header = preamble.header();
        NpyDType type = header.type();
        if (type.kind() != NpyDType.Kind.FIXED
                || (header.fortranOrder() && header.shape().rank() > 1)) {
            return java.util.Optional.empty();
        }
        long dataBytes =
                checkedProduct(name, header.shape().elements(), type.itemSize(), type.describe(header.descr()));
        if (length != UNKNOWN_LENGTH && length - preamble.dataStart() != dataBytes) {
            throw new SourceFormatException(
                    name,
                    dataMismatch(
                            header.shape().elements(),
                            type.describe(header.descr()),
                            dataBytes,
                            length - preamble.dataStart()));
        }
        return java.util.Optional.of(new NpyLayout(
                type.dtype(), header.shape(), preamble.dataStart(), type.bigEndian() ? type.swapWidth() : 0));
    }

    /** The header and the offset of the first data byte. */
    private record Preamble(Header header, long dataStart) {}

    private static Preamble preamble(String name, InputStream in, long length) throws IOException {
        boolean known = length != UNKNOWN_LENGTH;
        byte[] preamble = in.readNBytes(8);
        for (int i = 0; i < Math.min(preamble.length, MAGIC.length); i++) {
            if (preamble[i] != MAGIC[i]) {
                throw new SourceFormatException(name, "not a .npy file: it does not start with \\x93NUMPY");
            }
        }
        if (preamble.length < 8) {
            throw new SourceFormatException(
                    name, "the file ends inside the .npy preamble, after " + preamble.length + " bytes");
        }
        int major = preamble[6] & 0xFF;
        int minor = preamble[7] & 0xFF;
        if (minor != 0 || major < 1 || major > 3) {
            throw new SourceFormatException(
                    name, "unsupported .npy format version " + major + "." + minor + "; supported: 1.0, 2.0, 3.0");
        }
        int lengthBytes = major == 1 ? 2 : 4;
        byte[] lengthField = in.readNBytes(lengthBytes);
        if (lengthField.length < lengthBytes) {
            throw new SourceFormatException(name, "the file ends inside the .npy header length field");
        }
        long headerLength = 0;
        for (int i = lengthBytes - 1; i >= 0; i--) {
            headerLength = headerLength << 8 | (lengthField[i] & 0xFF);
        }
        long dataStart = 8 + lengthBytes + headerLength;
        if (headerLength > MAX_HEADER_BYTES) {
            throw new SourceFormatException(
                    name,
                    "the .npy header declares " + headerLength + " bytes, more than the " + MAX_HEADER_BYTES
                            + " this reader accepts");
        }
        if (known && dataStart > length) {
            throw new SourceFormatException(
                    name,
                    "the .npy header declares " + headerLength + " bytes but the file has only "
                            + (length - 8 - lengthBytes) + " bytes after the preamble");
        }
        byte[] headerBytes = HeapInput.read(in, (int) headerLength, known);
        if (headerBytes.length < headerLength) {
            throw new SourceFormatException(
                    name,
                    "the .npy header declares " + headerLength + " bytes but the file ends after "
                            + headerBytes.length);
        }
        return new Preamble(header(name, decodeHeader(name, headerBytes, major)), dataStart);
    }

    /** The most heap held at once: the raw data, a transposed copy, the converted result, a growing read buffer. */
    private static long peakBytes(Header header, long elements, long dataBytes, boolean known) {
        long scratch = known ? 0 : dataBytes / 2;
        if (header.fortranOrder() && header.shape().rank() > 1) {
            scratch = Math.max(scratch, dataBytes);
        }
        long result = switch (header.type().kind()) {
            case FIXED -> 0;
            case BOOL -> (elements + 7) / 8;
            // UTF-8 is never longer than the fixed-width form, plus an int offset per element
            case UNICODE, BYTES -> dataBytes + 4 * (elements + 1);
        };
        return dataBytes + scratch + result;
    }

    private static String dataMismatch(long elements, String elementType, long declared, long actual) {
        return "the header declares " + elements + " " + elementType + " elements (" + declared
                + " bytes) but the file has " + actual + " bytes of data";
    }

    private static long checkedProduct(String name, long elements, int itemSize, String elementType) {
        try {
            return Math.multiplyExact(elements, itemSize);
        } catch (ArithmeticException e) {
            throw new SourceFormatException(
                    name, "the header declares " + elements + " " + elementType + " elements, more than 2^63 bytes");
        }
    }

    private static String decodeHeader(String name, byte[] bytes, int major) {
        if (major < 3) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new SourceFormatException(name, "the version 3.0 .npy header is not valid UTF-8", e);
        }
    }

    /** The three header entries, validated. */
    private record Header(String descr, NpyDType type, boolean fortranOrder, Shape shape) {}

    private static Header header(String name, String text) {
        Map<String, Parsed> dict;
        try {
            dict = NpyHeaderParser.parseDict(text);
        } catch (NpyHeaderParser.SyntaxException e) {
            throw new SourceFormatException(name, "malformed .npy header: " + e.getMessage());
        }
        if (!dict.keySet().equals(KEYS)) {
            throw new SourceFormatException(
                    name,
                    "the .npy header has keys " + new TreeSet<>(dict.keySet()) + "; expected exactly "
                            + new TreeSet<>(KEYS));
        }
        Parsed descr = dict.get("descr");
        if (!(descr.value() instanceof String descrText)) {
            throw NpyDType.notAString(name, descr.text());
        }
        NpyDType type = NpyDType.parse(name, descrText);
        Parsed fortran = dict.get("fortran_order");
        if (!(fortran.value() instanceof Boolean fortranOrder)) {
            throw new SourceFormatException(name, "fortran_order is " + fortran.text() + "; expected True or False");
        }
        Parsed shape = dict.get("shape");
        if (!(shape.value() instanceof PyTuple tuple)) {
            throw new SourceFormatException(name, "shape is " + shape.text() + "; expected a tuple of integers");
        }
        if (tuple.items().size() > Shape.MAX_RANK) {
            throw new SourceFormatException(
                    name,
                    "shape has " + tuple.items().size() + " dimensions; at most " + Shape.MAX_RANK + " are supported");
        }
        long[] dims = new long[tuple.items().size()];
        for (int i = 0; i < dims.length; i++) {
            Object item = tuple.items().get(i);
            if (!(item instanceof BigInteger dim) || dim.signum() < 0 || dim.bitLength() > 63) {
                throw new SourceFormatException(
                        name,
                        "shape " + shape.text() + " has dimension " + i + " = " + item
                                + "; expected an integer from 0 to " + Long.MAX_VALUE);
            }
            dims[i] = dim.longValueExact();
        }
        Shape parsed = Shape.of(dims);
        try {
            parsed.elements();
        } catch (RuntimeException e) {
            throw new SourceFormatException(
                    name, "shape " + shape.text() + " has more than " + Long.MAX_VALUE + " elements");
        }
        return new Header(descrText, type, fortranOrder, parsed);
    }
}
