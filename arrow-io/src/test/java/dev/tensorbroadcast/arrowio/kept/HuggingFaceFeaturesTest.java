package dev.tensorbroadcast.arrowio.kept;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.planner.Shape;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;

/** datasets' schema metadata read per column, and written back for the kept columns only. */
class HuggingFaceFeaturesTest {
    private static final String DATASETS = "{\"info\": {\"features\": {\"label\": {\"names\": [\"cat\", \"dog\"],"
            + " \"_type\": \"ClassLabel\"}, \"user_id\": {\"dtype\": \"int64\", \"_type\": \"Value\"}}}}";

    @Test
    void readsEachColumnsFeature() {
        assertThat(HuggingFaceFeatures.parse(DATASETS))
                .containsExactly(
                        Map.entry("label", "{\"names\":[\"cat\",\"dog\"],\"_type\":\"ClassLabel\"}"),
                        Map.entry("user_id", "{\"dtype\":\"int64\",\"_type\":\"Value\"}"));
    }

    @Test
    void anotherWritersValueUnderTheKeyCarriesNothing() {
        assertThat(HuggingFaceFeatures.parse(null)).isEmpty();
        assertThat(HuggingFaceFeatures.parse("not json")).isEmpty();
        assertThat(HuggingFaceFeatures.parse("{\"info\": 3}")).isEmpty();
        assertThat(HuggingFaceFeatures.parse("{\"info\": {\"features\": {\"x\": 1}}}"))
                .isEmpty();
    }

    @Test
    void writesTheKeptColumnsFeaturesAfterTheTensorsAndNothingWithoutAny() {
        Map<String, String> features = HuggingFaceFeatures.parse(DATASETS);
        KeptColumn label = HuggingFaceFeatures.withFeature(
                        Optional.of(new KeptColumn("label", KeptColumn.Kind.INT64, null)), features)
                .orElseThrow();
        KeptColumn other = new KeptColumn("other", KeptColumn.Kind.STRING, null);

        assertThat(HuggingFaceFeatures.schemaMetadata(List.of(other), "tensor", Optional.of("{}")))
                .isEmpty();
        assertThat(HuggingFaceFeatures.schemaMetadata(
                        List.of(other, label),
                        "tensor",
                        HuggingFaceFeatures.nestedLists(Shape.of(2, 3), ArrowType.Bool.INSTANCE)))
                .contains(
                        "{\"info\":{\"features\":{\"tensor\":{\"feature\":{\"feature\":{\"dtype\":\"bool\",\"_type\":\"Value\"},"
                                + "\"length\":3,\"_type\":\"Sequence\"},\"length\":2,\"_type\":\"Sequence\"},"
                                + "\"label\":{\"names\":[\"cat\",\"dog\"],\"_type\":\"ClassLabel\"}}}}");
        // a file's column is the same column whether or not the dataset described it
        assertThat(label.sameValuesAs(new KeptColumn("label", KeptColumn.Kind.INT64, null)))
                .isTrue();
        assertThat(label).isNotEqualTo(new KeptColumn("label", KeptColumn.Kind.INT64, null));
    }

    @Test
    void valuesDatasetsHasNoneForGetNoTensorFeature() {
        assertThat(HuggingFaceFeatures.nestedLists(Shape.of(2), new ArrowType.Int(16, false)))
                .contains(
                        "{\"feature\":{\"dtype\":\"uint16\",\"_type\":\"Value\"},\"length\":2,\"_type\":\"Sequence\"}");
        assertThat(HuggingFaceFeatures.nestedLists(
                        Shape.of(2, 2), new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)))
                .get()
                .asString()
                .contains("float16");
        assertThat(HuggingFaceFeatures.nestedLists(Shape.of(2, 2), ArrowType.Binary.INSTANCE))
                .isEmpty();
    }
}
