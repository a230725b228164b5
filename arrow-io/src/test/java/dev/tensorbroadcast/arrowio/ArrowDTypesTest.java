package dev.tensorbroadcast.arrowio;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.planner.DType;
import org.junit.jupiter.api.Test;

class ArrowDTypesTest {
    @Test
    void complexTypesStoreTwoValuesOfHalfTheirWidth() {
        assertThat(ArrowDTypes.valuesPerElement(DType.COMPLEX64)).isEqualTo(2);
        assertThat(ArrowDTypes.valuesPerElement(DType.COMPLEX128)).isEqualTo(2);
        assertThat(ArrowDTypes.valuesPerElement(DType.STRING)).isEqualTo(1);
        assertThat(ArrowDTypes.valuesPerElement(DType.BOOL)).isEqualTo(1);
        assertThat(ArrowDTypes.storageByteWidth(DType.COMPLEX64)).isEqualTo(4);
        assertThat(ArrowDTypes.storageByteWidth(DType.COMPLEX128)).isEqualTo(8);
        assertThat(ArrowDTypes.storageByteWidth(DType.FLOAT16)).isEqualTo(2);
        assertThat(ArrowDTypes.storageByteWidth(DType.UINT64)).isEqualTo(8);
    }
}
