package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EnumNamesTest {
    @Test
    void findsNamesIgnoringCaseAndBlanks() {
        assertThat(Dialect.parse(" OpenVINO ")).isEqualTo(Dialect.OPENVINO);
        assertThat(BroadcastMode.parse("Explicit")).isEqualTo(BroadcastMode.EXPLICIT);
        assertThat(DType.parse("FLOAT32")).isEqualTo(DType.FLOAT32);
        assertThat(DType.parse("double")).isEqualTo(DType.FLOAT64);
    }

    @Test
    void refusesOtherNamesListingTheAcceptedOnes() {
        assertThatThrownBy(() -> BroadcastMode.parse("none"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot parse mode 'none': expected numpy, explicit, bidirectional or pdpd");
        assertThatThrownBy(() -> DType.parse(null))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage(
                        "Cannot parse dtype 'null': expected bool, int8, int16, int32, int64, uint8, uint16, uint32,"
                                + " uint64, float16, bfloat16, float32, float64, complex64, complex128 or string");
    }
}
