package dev.tensorbroadcast.arrowio.format.npy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.source.TensorValues;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Reads every .npy file numpy wrote (see make_fixtures.py) and compares it with expected.json. */
class NpyFixturesTest {
    private static final NpyReader READER = new NpyReader(SourceLimits.defaults());

    static Path dir() throws URISyntaxException {
        return Path.of(NpyFixturesTest.class
                        .getResource("/fixtures/npy/expected.json")
                        .toURI())
                .getParent();
    }

    static Stream<Map.Entry<String, JsonNode>> fixtures() throws Exception {
        JsonNode root =
                new ObjectMapper().readTree(dir().resolve("expected.json").toFile());
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        root.fields().forEachRemaining(entries::add);
        return entries.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void readsWhatNumpyWrote(Map.Entry<String, JsonNode> fixture) throws Exception {
        Path file = dir().resolve(fixture.getKey());
        JsonNode expected = fixture.getValue();
        SourceTensor tensor = READER.read(file);

        assertThat(tensor.dtype()).isEqualTo(DType.parse(expected.get("dtype").asText()));
        List<Long> dims = new ArrayList<>();
        expected.get("shape").forEach(dim -> dims.add(dim.asLong()));
        assertThat(tensor.shape())
                .isEqualTo(Shape.of(dims.stream().mapToLong(Long::longValue).toArray()));
        assertThat(tensor.hasNulls()).isFalse();
        assertThat(TensorValues.of(tensor)).isEqualTo(expectedValues(tensor.dtype(), expected.get("values")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void streamOfUnknownLengthAndChannelReadTheSame(Map.Entry<String, JsonNode> fixture) throws Exception {
        Path file = dir().resolve(fixture.getKey());
        SourceTensor fromPath = READER.read(file);
        SourceTensor fromStream;
        try (InputStream in = Files.newInputStream(file)) {
            fromStream = READER.read(fixture.getKey(), in, NpyReader.UNKNOWN_LENGTH);
        }
        SourceTensor fromChannel;
        try (FileChannel channel = FileChannel.open(file)) {
            fromChannel = READER.read(fixture.getKey(), channel, NpyReader.UNKNOWN_LENGTH);
        }
        for (SourceTensor other : List.of(fromStream, fromChannel)) {
            assertThat(other.shape()).isEqualTo(fromPath.shape());
            assertThat(other.dtype()).isEqualTo(fromPath.dtype());
            assertThat(TensorValues.of(other)).isEqualTo(TensorValues.of(fromPath));
        }
    }

    @Test
    void coversEveryDtypeButBfloat16() throws Exception {
        // numpy has no bfloat16; every other dtype must have a fixture
        List<DType> seen = new ArrayList<>();
        fixtures().forEach(f -> seen.add(DType.parse(f.getValue().get("dtype").asText())));
        assertThat(seen)
                .containsAll(Stream.of(DType.values())
                        .filter(t -> t != DType.BFLOAT16)
                        .toList());
    }

    @Test
    void fortranOrderIsReadRowMajor() throws Exception {
        SourceTensor tensor = READER.read(dir().resolve("fortran_f4.npy"));
        assertThat(tensor.shape()).isEqualTo(Shape.of(2, 3, 4));
        List<Object> values = TensorValues.of(tensor);
        for (int i = 0; i < 24; i++) {
            assertThat(Float.intBitsToFloat((int) (long) (Long) values.get(i))).isEqualTo((float) i);
        }
    }

    private static List<Object> expectedValues(DType dtype, JsonNode values) {
        List<Object> out = new ArrayList<>();
        for (Iterator<JsonNode> it = values.elements(); it.hasNext(); ) {
            JsonNode value = it.next();
            out.add(
                    switch (dtype) {
                        case BOOL -> value.asBoolean();
                        case STRING -> value.asText();
                        case COMPLEX64, COMPLEX128 -> List.of(bits(value.get(0)), bits(value.get(1)));
                        default -> bits(value);
                    });
        }
        return out;
    }

    /** JSON integers up to 2^64-1 as a Java long's bits, as TensorValues reports them. */
    private static Long bits(JsonNode value) {
        return value.bigIntegerValue().longValue();
    }
}
