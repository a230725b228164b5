package dev.tensorbroadcast.job.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestRequestsTest {
    private static Manifest manifest(Map<String, String> request, List<Long> shape) {
        return new Manifest(Manifest.FORMAT_VERSION, "test", "now", request,
                List.of(new Manifest.ManifestInput("in.npy", List.of(3L), "int8")), shape, "int8", 6, 6, 1,
                List.of(3L), 0, "arrow", "none", 1, List.of());
    }

    @Test
    void rebuildsAnOpenvinoExplicitRequest() {
        Map<String, String> request = ManifestRequests.of("openvino", "[2,3]", "explicit", "[1]", null, null);

        BroadcastRequest rebuilt = ManifestRequests.toRequest(manifest(request, List.of(2L, 3L)));

        assertThat(request).containsOnlyKeys("dialect", "shape", "mode", "axes_mapping");
        assertThat(rebuilt.dialect()).isEqualTo(Dialect.OPENVINO);
        assertThat(rebuilt.mode()).contains(BroadcastMode.EXPLICIT);
        assertThat(rebuilt.axesMapping()).contains(List.of(1L));
        assertThat(rebuilt.plan().output()).isEqualTo(Shape.of(2, 3));
    }

    @Test
    void rebuildsNgraphAndPdpdArguments() {
        BroadcastRequest ngraph = ManifestRequests.toRequest(manifest(
                ManifestRequests.of("ngraph", "2,3", null, null, "[0]", null), List.of()));
        BroadcastRequest pdpd = ManifestRequests.toRequest(manifest(
                ManifestRequests.of("openvino", "3,3", "pdpd", null, null, "1"), List.of()));

        assertThat(ngraph.broadcastAxes()).contains(List.of(0L));
        assertThat(pdpd.axis().getAsLong()).isEqualTo(1);
    }

    @Test
    void namesWhatIsWrong() {
        assertThatThrownBy(() -> ManifestRequests.toRequest(manifest(Map.of("shape", "[2,3]"), List.of())))
                .isInstanceOf(ManifestException.class)
                .hasMessage("Cannot rebuild the request from the manifest: it has no 'dialect' key; it has [shape]");
        assertThatThrownBy(() -> ManifestRequests.toRequest(manifest(Map.of("dialect", "ngraph",
                "broadcast_axes", "[x]"), List.of())))
                .hasMessage("Cannot read manifest request key 'broadcast_axes': 'x' is not an integer");
        assertThatThrownBy(() -> ManifestRequests.inputIndex(manifest(Map.of("dialect", "numpy", "input", "1"),
                List.of())))
                .hasMessage("Cannot use manifest request key 'input' = 1: the manifest lists 1 inputs");
    }
}
