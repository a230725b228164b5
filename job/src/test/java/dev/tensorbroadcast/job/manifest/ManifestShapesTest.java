package dev.tensorbroadcast.job.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestShapesTest {
    @Test
    void convertsBothWays() {
        assertThat(ManifestShapes.shape(List.of(4L, 0L, 3L))).isEqualTo(Shape.of(4, 0, 3));
        assertThat(ManifestShapes.shape(List.of())).isEqualTo(Shape.scalar());
        assertThat(ManifestShapes.list(Shape.of(4, 0, 3))).containsExactly(4L, 0L, 3L);
        assertThat(ManifestShapes.list(Shape.scalar())).isEmpty();
    }

    @Test
    void refusesANegativeDim() {
        assertThatThrownBy(() -> ManifestShapes.shape(List.of(2L, -1L)))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot create shape (2,-1): dim 1 is -1; a tensor's dimensions are 0 or more");
    }
}
