package dev.tensorbroadcast.arrowio.format.npy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.source.TensorValues;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Files built byte by byte: the header forms numpy writes, and hostile ones. */
class NpyReaderTest {
    private static final NpyReader READER = new NpyReader(SourceLimits.defaults());

    @Test
    void recognisesTheMagicString() {
        assertThat(NpyReader.magic()).containsExactly(0x93 - 256, 'N', 'U', 'M', 'P', 'Y');
        assertThat(NpyReader.isNpy(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0}))
                .isTrue();
        assertThat(NpyReader.isNpy(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y'}))
                .isTrue();
        assertThat(NpyReader.isNpy(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P'}))
                .isFalse();
        assertThat(NpyReader.isNpy(new byte[] {'A', 'R', 'R', 'O', 'W', '1', 0, 0}))
                .isFalse();
        NpyReader.magic()[0] = 0;
        assertThat(NpyReader.magic()[0]).isEqualTo((byte) 0x93);
    }

    @Test
    void readsVersion1WithPythonTwoLongs() throws IOException {
        SourceTensor tensor = read(npy(
                1,
                "{'descr': '<i2', 'fortran_order': False, 'shape': (2L, 1L), }",
                le(4).putShort((short) 7).putShort((short) -8)));
        assertThat(tensor.shape()).isEqualTo(Shape.of(2, 1));
        assertThat(TensorValues.of(tensor)).containsExactly(7L, -8L);
    }

    @Test
    void acceptsDoubleQuotesAnyKeyOrderAndNoTrailingComma() throws IOException {
        SourceTensor tensor =
                read(npy(2, "{\"shape\": (), \"fortran_order\": True, \"descr\": \"=u1\"}", le(1).put((byte) 200)));
        assertThat(tensor.dtype()).isEqualTo(DType.UINT8);
        assertThat(tensor.shape()).isEqualTo(Shape.scalar());
        assertThat(TensorValues.of(tensor)).containsExactly(200L);
    }

    @Test
    void readsNonZeroBytesAsTrue() throws IOException {
        SourceTensor tensor = read(npy(
                1,
                "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                le(3).put((byte) 0).put((byte) 2).put((byte) 1)));
        assertThat(TensorValues.of(tensor)).containsExactly(false, true, true);
    }

    @Test
    void readsFromAChannelAtItsPosition() throws IOException {
        byte[] file = npy(1, "{'descr': '<i1', 'fortran_order': False, 'shape': (1,), }", le(1).put((byte) 5));
        Path path = Files.createTempFile("npy", ".bin");
        try {
            byte[] prefixed = new byte[file.length + 3];
            System.arraycopy(file, 0, prefixed, 3, file.length);
            Files.write(path, prefixed);
            try (var channel = java.nio.channels.FileChannel.open(path)) {
                channel.position(3);
                assertThat(TensorValues.of(READER.read("x.npy", channel, NpyReader.UNKNOWN_LENGTH)))
                        .containsExactly(5L);
            }
        } finally {
            Files.delete(path);
        }
    }

    @Test
    void rejectsTruncatedData() {
        byte[] file = npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }", le(12));
        String message = "Cannot read x.npy: the header declares 1000 float32 elements (4000 bytes) but the file has "
                + "12 bytes of data";
        assertThatThrownBy(() -> read(file))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage(message);
        assertThatThrownBy(() -> readUnknownLength(file))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage(message);
    }

    @Test
    void rejectsTrailingData() {
        byte[] file = npy(1, "{'descr': '<i1', 'fortran_order': False, 'shape': (2,), }", le(5));
        String message = "Cannot read x.npy: the header declares 2 int8 elements (2 bytes) but the file has 5 bytes "
                + "of data";
        assertThatThrownBy(() -> read(file)).hasMessage(message);
        assertThatThrownBy(() -> readUnknownLength(file)).hasMessage(message);
    }

    @Test
    void rejectsTruncatedHeader() {
        byte[] file = npy(1, "{'descr': '<i1', 'fortran_order': False, 'shape': (2,), }", le(2));
        byte[] cut = java.util.Arrays.copyOf(file, 30);
        assertThatThrownBy(() -> read(cut))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read x.npy: the .npy header declares 118 bytes but the file has only 20 bytes "
                        + "after the preamble");
        assertThatThrownBy(() -> readUnknownLength(cut))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read x.npy: the .npy header declares 118 bytes but the file ends after 20");
        assertThatThrownBy(() -> read(java.util.Arrays.copyOf(file, 9)))
                .hasMessage("Cannot read x.npy: the file ends inside the .npy header length field");
        assertThatThrownBy(() -> read(java.util.Arrays.copyOf(file, 4)))
                .hasMessage("Cannot read x.npy: the file ends inside the .npy preamble, after 4 bytes");
        assertThatThrownBy(() -> read(new byte[0]))
                .hasMessage("Cannot read x.npy: the file ends inside the .npy preamble, after 0 bytes");
    }

    @Test
    void rejectsAHugeHeaderLengthBeforeAllocating() {
        byte[] file = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, -1, -1, -1, -1, '{', '}'};
        assertThatThrownBy(() -> read(file))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read x.npy: the .npy header declares 4294967295 bytes, more than the 1048576 "
                        + "this reader accepts");
    }

    @Test
    void rejectsGarbageMagicAndUnknownVersions() {
        assertThatThrownBy(() -> read("PK\3\4 not numpy at all".getBytes(StandardCharsets.ISO_8859_1)))
                .hasMessage("Cannot read x.npy: not a .npy file: it does not start with \\x93NUMPY");
        byte[] version4 = npy(1, "{'descr': '<i1', 'fortran_order': False, 'shape': (1,), }", le(1));
        version4[6] = 4;
        assertThatThrownBy(() -> read(version4))
                .hasMessage("Cannot read x.npy: unsupported .npy format version 4.0; supported: 1.0, 2.0, 3.0");
    }

    @Test
    void rejectsAShapeWhoseSizeOverflows() {
        byte[] file = npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", le(0));
        assertThatThrownBy(() -> read(file))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read x.npy: shape (4611686018427387904, 4) has more than 9223372036854775807 "
                        + "elements");
        byte[] bytes = npy(1, "{'descr': '<c16', 'fortran_order': False, 'shape': (2305843009213693952,), }", le(0));
        assertThatThrownBy(() -> read(bytes))
                .hasMessage("Cannot read x.npy: the header declares 2305843009213693952 complex128 elements, more "
                        + "than 2^63 bytes");
        byte[] huge = npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", le(0));
        assertThatThrownBy(() -> read(huge))
                .hasMessageContaining("has dimension 0 = 99999999999999999999; expected "
                        + "an integer from 0 to 9223372036854775807");
    }

    @Test
    void rejectsAShapeOverTheHeapLimitBeforeAllocating() throws IOException {
        byte[] file = npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1000, 1000, 1000), }", le(16));
        assertThatThrownBy(() -> read(file))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read x.npy: the header declares 1000000000 float64 elements (8000000000 bytes of "
                        + "data), which need 8000000000 bytes of heap, more than the limit of 1073741824 bytes for a "
                        + "source");
        byte[] small = npy(1, "{'descr': '<i4', 'fortran_order': True, 'shape': (4, 4), }", le(64));
        NpyReader tight = new NpyReader(new SourceLimits(100));
        assertThatThrownBy(() -> tight.read("x.npy", new ByteArrayInputStream(small), small.length))
                .hasMessageContaining("which need 128 bytes of heap, more than the limit of 100 bytes");
        assertThat(new NpyReader(new SourceLimits(128))
                        .read("x.npy", new ByteArrayInputStream(small), small.length)
                        .shape())
                .isEqualTo(Shape.of(4, 4));
    }

    @Test
    void rejectsNegativeDimsAndBadShapes() {
        assertThatThrownBy(() -> read(header("'shape': (2, -1)")))
                .hasMessage("Cannot read x.npy: shape (2, -1) has dimension 1 = -1; expected an integer from 0 to "
                        + "9223372036854775807");
        assertThatThrownBy(() -> read(header("'shape': [2, 3]")))
                .hasMessage("Cannot read x.npy: shape is [2, 3]; expected a tuple of integers");
        assertThatThrownBy(() -> read(header("'shape': (3)")))
                .hasMessage("Cannot read x.npy: shape is (3); expected a tuple of integers");
        assertThatThrownBy(() -> read(header("'shape': ('a',)")))
                .hasMessageStartingWith("Cannot read x.npy: shape ('a',) has dimension 0 = a;");
        String rank65 = "(" + "1, ".repeat(65) + ")";
        assertThatThrownBy(() -> read(header("'shape': " + rank65)))
                .hasMessage("Cannot read x.npy: shape has 65 dimensions; at most 64 are supported");
    }

    @Test
    void rejectsMissingOrExtraKeysAndNonBooleanFortranOrder() {
        assertThatThrownBy(() -> read(npy(1, "{'descr': '<i1', 'shape': (1,), }", le(1))))
                .hasMessage("Cannot read x.npy: the .npy header has keys [descr, shape]; expected exactly "
                        + "[descr, fortran_order, shape]");
        assertThatThrownBy(() -> read(npy(1, "{'descr': '<i1', 'fortran_order': False, 'shape': (1,), 'x': 1}", le(1))))
                .hasMessageContaining("has keys [descr, fortran_order, shape, x]");
        assertThatThrownBy(() -> read(npy(1, "{'descr': '<i1', 'fortran_order': 0, 'shape': (1,), }", le(1))))
                .hasMessage("Cannot read x.npy: fortran_order is 0; expected True or False");
        assertThatThrownBy(() -> read(npy(1, "{'descr': '<i1', 'fortran_order': 'no', 'shape': (1,), }", le(1))))
                .hasMessage("Cannot read x.npy: fortran_order is 'no'; expected True or False");
        assertThatThrownBy(() -> read(
                        npy(1, "{'descr': '<i1', 'descr': '<i1', 'fortran_order': False, " + "'shape': (1,)}", le(1))))
                .hasMessage("Cannot read x.npy: malformed .npy header: key 'descr' " + "appears twice");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "{",
                "{'descr': '<i1' 'shape': (1,)}",
                "{'descr': <i1}",
                "[1, 2]",
                "{'descr': '<i1', 'fortran_order': False, 'shape': (1,)} extra",
                "{'descr': __import__('os')}",
                "{'descr': '<i1\\x', 'fortran_order': False, 'shape': (1,)}",
                "{'shape': (1,) ,,}",
                "{'shape': ((((((((((((((((((((((1,),),),),),),),),),),),),),),),),),),),),),),)}"
            })
    void rejectsMalformedHeaders(String header) {
        assertThatThrownBy(() -> read(npy(1, header, le(1))))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageStartingWith("Cannot read x.npy: malformed .npy header: ");
    }

    @Test
    void rejectsUnsupportedDtypesNamingTheSupportedOnes() {
        String supported = "; supported: b1, i1, i2, i4, i8, u1, u2, u4, u8, f2, f4, f8, c8, c16, U<n> and S<n>, with "
                + "byte order <, >, | or =";
        assertThatThrownBy(() -> read(header("'descr': '|O'")))
                .hasMessage("Cannot read x.npy: unsupported dtype '|O' (object arrays hold pickled Python objects)"
                        + supported);
        assertThatThrownBy(() -> read(header("'descr': [('a', '<i4'), ('b', '<f8')]")))
                .hasMessage(
                        "Cannot read x.npy: unsupported dtype [('a', '<i4'), ('b', '<f8')] (structured dtypes are not "
                                + "supported)" + supported);
        assertThatThrownBy(() -> read(header("'descr': '|V8'")))
                .hasMessage("Cannot read x.npy: unsupported dtype '|V8' (void/structured records)" + supported);
        for (String descr : List.of("<M8[ns]", "<f16", "<i3", "x", "<U", "?")) {
            assertThatThrownBy(() -> read(header("'descr': '" + descr + "'")))
                    .hasMessage("Cannot read x.npy: unsupported dtype '" + descr + "'" + supported);
        }
        assertThatThrownBy(() -> read(header("'descr': '<U0'")))
                .hasMessage("Cannot read x.npy: string dtype '<U0' must hold from 1 to 16777216 characters");
        assertThatThrownBy(() -> read(header("'descr': '<U99999999999'")))
                .hasMessage("Cannot read x.npy: string dtype '<U99999999999' must hold from 1 to 16777216 characters");
    }

    @Test
    void rejectsInvalidTextClearly() {
        ByteBuffer surrogate = le(8).putInt('a').putInt(0xD800);
        assertThatThrownBy(() -> read(npy(1, "{'descr': '<U2', 'fortran_order': False, 'shape': (1,), }", surrogate)))
                .hasMessage("Cannot read x.npy: element 0 of the <U2 strings holds code point 0xD800, "
                        + "which is not a Unicode scalar value (a surrogate or above 0x10FFFF)");
        ByteBuffer latin1 =
                le(4).put((byte) 'o').put((byte) 'k').put((byte) 'c').put((byte) 0xE9);
        assertThatThrownBy(() -> read(npy(1, "{'descr': '|S2', 'fortran_order': False, 'shape': (2,), }", latin1)))
                .hasMessage("Cannot read x.npy: element 1 of the |S2 byte strings is not valid UTF-8 "
                        + "(byte 0xE9 at position 1); byte strings are read as UTF-8 text");
        byte[] header3 = npy(3, "{'descr': '<i1', 'fortran_order': False, 'shape': (1,), }", le(1));
        header3[13] = (byte) 0xFF;
        assertThatThrownBy(() -> read(header3))
                .hasMessage("Cannot read x.npy: the version 3.0 .npy header is not valid UTF-8");
    }

    @Test
    void keepsEmbeddedNulsButStripsTrailingOnes() throws IOException {
        ByteBuffer data = le(16).putInt('a').putInt(0).putInt('b').putInt(0);
        SourceTensor tensor = read(npy(1, "{'descr': '<U4', 'fortran_order': False, 'shape': (1,), }", data));
        assertThat(TensorValues.of(tensor)).containsExactly("a\0b");
    }

    @Test
    void randomCorruptionGivesAClearErrorOrATensor() throws Exception {
        Path dir = NpyFixturesTest.dir();
        List<String> names = List.of(
                "float32.npy",
                "unicode.npy",
                "fortran_f4.npy",
                "bool.npy",
                "version3.npy",
                "complex128_be.npy",
                "bytes.npy");
        Random random = new Random(42);
        for (String name : names) {
            byte[] valid = Files.readAllBytes(dir.resolve(name));
            for (int round = 0; round < 300; round++) {
                byte[] bytes = valid.clone();
                if (random.nextInt(4) == 0) {
                    bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
                } else {
                    for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                        bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
                    }
                }
                byte[] input = bytes;
                for (boolean known : new boolean[] {true, false}) {
                    try {
                        SourceTensor tensor = READER.read(
                                name, new ByteArrayInputStream(input), known ? input.length : NpyReader.UNKNOWN_LENGTH);
                        assertThat(TensorValues.of(tensor)).hasSize((int) tensor.elements());
                    } catch (SourceFormatException e) {
                        assertThat(e.getMessage())
                                .startsWith("Cannot read " + name + ": ")
                                .doesNotContain("\n");
                    }
                }
            }
        }
    }

    private static SourceTensor read(byte[] file) throws IOException {
        return READER.read("x.npy", new ByteArrayInputStream(file), file.length);
    }

    private static SourceTensor readUnknownLength(byte[] file) throws IOException {
        InputStream in = new ByteArrayInputStream(file);
        return READER.read("x.npy", in, NpyReader.UNKNOWN_LENGTH);
    }

    private static byte[] header(String entry) {
        String key = entry.substring(1, entry.indexOf('\'', 1));
        StringBuilder header = new StringBuilder("{");
        for (String k : List.of("descr", "fortran_order", "shape")) {
            header.append(
                            k.equals(key)
                                    ? entry
                                    : switch (k) {
                                        case "descr" -> "'descr': '<i1'";
                                        case "fortran_order" -> "'fortran_order': False";
                                        default -> "'shape': (1,)";
                                    })
                    .append(", ");
        }
        return npy(1, header.append('}').toString(), le(1));
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A .npy file as numpy lays it out: magic, version, header length, header padded to 64 bytes, data. */
    static byte[] npy(int major, String header, ByteBuffer data) {
        byte[] text = header.getBytes(major == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        int lengthBytes = major == 1 ? 2 : 4;
        int unpadded = 8 + lengthBytes + text.length + 1;
        int padding = (64 - unpadded % 64) % 64;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) major, 0});
        int length = text.length + padding + 1;
        out.write(length);
        out.write(length >>> 8);
        if (lengthBytes == 4) {
            out.write(length >>> 16);
            out.write(length >>> 24);
        }
        out.writeBytes(text);
        out.writeBytes(" ".repeat(padding).getBytes(StandardCharsets.ISO_8859_1));
        out.write('\n');
        out.writeBytes(data.array());
        return out.toByteArray();
    }
}
