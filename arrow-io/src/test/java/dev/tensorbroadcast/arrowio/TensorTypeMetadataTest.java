package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

class TensorTypeMetadataTest {
    @Test
    void serializesExactlyAsTheCanonicalSpec() {
        assertThat(TensorTypeMetadata.of(Shape.of(2, 3)).toJson()).isEqualTo("{\"shape\":[2,3]}");
        assertThat(TensorTypeMetadata.of(Shape.scalar()).toJson()).isEqualTo("{\"shape\":[]}");
        assertThat(new TensorTypeMetadata(Shape.of(2, 3, 4), List.of("C", "H", "W"), new int[] {2, 0, 1}).toJson())
                .isEqualTo("{\"shape\":[2,3,4],\"dim_names\":[\"C\",\"H\",\"W\"],\"permutation\":[2,0,1]}");
    }

    @Test
    void parsesWhatItWritesAndWhatPyarrowWrites() {
        TensorTypeMetadata full = new TensorTypeMetadata(Shape.of(2, 3), List.of("x", "y"), new int[] {1, 0});
        assertThat(TensorTypeMetadata.parse(full.toJson())).isEqualTo(full);
        TensorTypeMetadata spaced =
                TensorTypeMetadata.parse("{ \"shape\": [2, 5], \"permutation\": [0, 1], \"extra\": true }");
        assertThat(spaced.shape()).isEqualTo(Shape.of(2, 5));
        assertThat(spaced.dimNames()).isEmpty();
        assertThat(spaced.permutation()).containsExactly(0, 1);
        assertThat(spaced.isRowMajor()).isTrue();
        assertThat(full.isRowMajor()).isFalse();
        assertThat(TensorTypeMetadata.parse("{\"shape\":[0,7]}").elements()).isZero();
    }

    @Test
    void rejectsInvalidMetadataWithClearMessages() {
        assertThatThrownBy(() -> TensorTypeMetadata.parse("{\"shape\":[2,-1]}"))
                .hasMessage("Cannot parse arrow.fixed_shape_tensor metadata '{\"shape\":[2,-1]}': shape entry 1 is -1;"
                        + " expected a non-negative integer");
        assertThatThrownBy(() -> TensorTypeMetadata.parse("{\"shape\":[2,1.5]}"))
                .hasMessageContaining("shape entry 1 is 1.5");
        assertThatThrownBy(() -> TensorTypeMetadata.parse("{\"dims\":[2]}"))
                .hasMessageContaining("expected \"shape\" to be an array of non-negative integers");
        assertThatThrownBy(() -> TensorTypeMetadata.parse("[2,3]")).hasMessageContaining("expected a JSON object");
        assertThatThrownBy(() -> TensorTypeMetadata.parse("{\"shape\":[2,3"))
                .hasMessageContaining("it is not valid JSON");
        assertThatThrownBy(() -> TensorTypeMetadata.parse("{\"shape\":[2,3],\"permutation\":[0,0]}"))
                .hasMessageEndingWith("permutation [0, 0] is not a permutation of 0..1");
        assertThatThrownBy(() -> TensorTypeMetadata.parse("{\"shape\":[2,3],\"permutation\":[0,1,2]}"))
                .hasMessageEndingWith("permutation [0, 1, 2] is not a permutation of 0..1");
        assertThatThrownBy(() -> TensorTypeMetadata.parse("{\"shape\":[2,3],\"dim_names\":[\"a\"]}"))
                .hasMessageEndingWith("dim_names has 1 names for 2 dimensions");
        assertThatThrownBy(() -> TensorTypeMetadata.parse("{\"shape\":[2,3],\"dim_names\":[\"a\",3]}"))
                .hasMessageEndingWith("dim_names entry 3 is not a string");
        assertThatThrownBy(() -> new TensorTypeMetadata(Shape.of(2), List.of(), new int[] {1}))
                .hasMessage("Cannot use permutation [1] for tensor shape [2]: expected a permutation of 0..0");
    }

    @Test
    void equalityIncludesTheArrays() {
        assertThat(new TensorTypeMetadata(Shape.of(2, 3), List.of(), new int[] {1, 0}))
                .isEqualTo(new TensorTypeMetadata(Shape.of(2, 3), List.of(), new int[] {1, 0}))
                .hasSameHashCodeAs(new TensorTypeMetadata(Shape.of(2, 3), List.of(), new int[] {1, 0}))
                .isNotEqualTo(new TensorTypeMetadata(Shape.of(2, 3), List.of(), null));
    }
}
