package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.source.TensorValues;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Reads the files Arrow JS wrote (see make_fixtures.mjs) and compares every column with expected.json. */
class ArrowFixturesTest {
    private static final ArrowSourceReader READER = new ArrowSourceReader(SourceLimits.defaults());

    static Path dir() throws Exception {
        return Path.of(ArrowFixturesTest.class
                        .getResource("/fixtures/arrow/expected.json")
                        .toURI())
                .getParent();
    }

    static Stream<Arguments> columns() throws Exception {
        JsonNode root =
                new ObjectMapper().readTree(dir().resolve("expected.json").toFile());
        List<Arguments> out = new ArrayList<>();
        root.fields()
                .forEachRemaining(file -> file.getValue()
                        .fields()
                        .forEachRemaining(
                                column -> out.add(Arguments.of(file.getKey(), column.getKey(), column.getValue()))));
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("columns")
    void readsEveryColumnArrowJsWrote(String file, String column, JsonNode expected) throws Exception {
        SourceTensor tensor =
                READER.read(dir().resolve(file), ArrowSourceOptions.defaults().withColumn(column));

        DType dtype = DType.parse(expected.get("dtype").asText());
        assertThat(tensor.dtype()).isEqualTo(dtype);
        long[] dims = new long[expected.get("shape").size()];
        for (int i = 0; i < dims.length; i++) {
            dims[i] = expected.get("shape").get(i).asLong();
        }
        assertThat(tensor.shape()).isEqualTo(Shape.of(dims));
        List<Object> want = new ArrayList<>();
        for (JsonNode value : expected.get("values")) {
            want.add(
                    value.isNull()
                            ? null
                            : switch (dtype) {
                                case BOOL -> value.asBoolean();
                                case STRING -> value.asText();
                                case FLOAT32 -> (long) Float.floatToRawIntBits((float) value.asDouble()) & 0xFFFFFFFFL;
                                default -> Long.parseLong(value.asText());
                            });
        }
        assertThat(TensorValues.of(tensor)).isEqualTo(want);
        assertThat(tensor.hasNulls()).isEqualTo(want.contains(null));
    }

    @ParameterizedTest
    @ValueSource(strings = {"tensors.arrow", "tensors.arrows"})
    void choosesTheTensorColumnByDefaultAndOrdersRowsByIndex(String file) throws Exception {
        SourceTensor tensor = READER.read(dir().resolve(file), ArrowSourceOptions.defaults());
        assertThat(tensor.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(tensor.shape()).isEqualTo(Shape.of(5, 2, 3));
        List<Object> values = TensorValues.of(tensor);
        for (int p = 0; p < 5; p++) {
            for (int k = 0; k < 6; k++) {
                assertThat(Float.intBitsToFloat((int) (long) (Long) values.get(p * 6 + k)))
                        .isEqualTo(p * 10 + k * 0.25f);
            }
        }
    }

    @Test
    void convertsAPermutedTensorToLogicalRowMajor() throws Exception {
        SourceTensor tensor = READER.read(dir().resolve("permuted.arrow"), ArrowSourceOptions.defaults());
        assertThat(tensor.shape()).isEqualTo(Shape.of(2, 4, 2, 3));
        List<Object> values = TensorValues.of(tensor);
        int e = 0;
        for (int r = 0; r < 2; r++) {
            for (int a = 0; a < 4; a++) {
                for (int b = 0; b < 2; b++) {
                    for (int c = 0; c < 3; c++) {
                        assertThat(values.get(e++)).isEqualTo((long) (r * 1000 + a * 100 + b * 10 + c));
                    }
                }
            }
        }
    }

    @Test
    void reshapesAPrimitiveColumn() throws Exception {
        SourceTensor tensor = READER.read(
                dir().resolve("tensors.arrows"),
                ArrowSourceOptions.defaults().withColumn("label").withShape(Shape.of(1, 5)));
        assertThat(tensor.shape()).isEqualTo(Shape.of(1, 5));
        assertThat(TensorValues.of(tensor)).containsExactly("zero", "ün", "dos", null, "日本");
        assertThatThrownBy(() -> READER.read(
                        dir().resolve("tensors.arrows"),
                        ArrowSourceOptions.defaults().withColumn("label").withShape(Shape.of(2, 3))))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read tensors.arrows: cannot give column 'label' of shape (5,) (5 elements) the "
                        + "shape (2,3): the element counts differ");
    }

    @Test
    void rejectsDictionaryColumnsAndUnknownColumns() throws Exception {
        assertThatThrownBy(() -> READER.read(dir().resolve("dictionary.arrow"), ArrowSourceOptions.defaults()))
                .isInstanceOf(SourceFormatException.class)
                .hasMessage("Cannot read dictionary.arrow: column 'words' is dictionary-encoded; write it decoded "
                        + "(e.g. pyarrow's dictionary_decode) to read it as a tensor");
        assertThatThrownBy(() -> READER.read(
                        dir().resolve("tensors.arrow"),
                        ArrowSourceOptions.defaults().withColumn("nope")))
                .hasMessage("Cannot read tensors.arrow: there is no column 'nope'; the columns are [index, tensor, "
                        + "count, label, flag]");
    }

    @Test
    void randomCorruptionGivesAClearErrorOrATensor() throws Exception {
        Random random = new Random(7);
        for (String name : List.of("tensors.arrow", "tensors.arrows", "permuted.arrow", "permuted.arrows")) {
            byte[] valid = Files.readAllBytes(dir().resolve(name));
            for (int round = 0; round < 150; round++) {
                byte[] bytes = valid.clone();
                if (random.nextInt(4) == 0) {
                    bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
                } else {
                    for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                        bytes[random.nextInt(bytes.length)] ^= (byte) (1 << random.nextInt(8));
                    }
                }
                for (String column : List.of("tensor", "label", "flag")) {
                    if (name.startsWith("permuted") && !column.equals("tensor")) {
                        continue;
                    }
                    try {
                        SourceTensor tensor = READER.read(
                                name,
                                new ByteArrayInputStream(bytes),
                                bytes.length,
                                ArrowSourceOptions.defaults().withColumn(column));
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
}
