package dev.tensorbroadcast.job.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.tensorbroadcast.planner.BroadcastMode;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.io.ByteArrayInputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ManifestRequestsTest {
    private static Manifest manifest(Map<String, String> request, List<Long> shape) {
        return new Manifest(
                Manifest.FORMAT_VERSION,
                "test",
                "now",
                request,
                List.of(new Manifest.ManifestInput("in.npy", List.of(3L), "int8")),
                shape,
                "int8",
                6,
                6,
                1,
                List.of(3L),
                0,
                "arrow",
                "none",
                1,
                List.of());
    }

    @Test
    void rebuildsAnOpenvinoExplicitRequest() {
        Map<String, String> request = ManifestRequests.of(
                BroadcastRequest.builder(Dialect.OPENVINO)
                        .input(Shape.of(3), DType.INT8)
                        .target(2, 3)
                        .mode(BroadcastMode.EXPLICIT)
                        .axesMapping(1)
                        .build(),
                OptionalInt.empty());

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
                ManifestRequests.of(
                        BroadcastRequest.builder(Dialect.NGRAPH)
                                .input(Shape.of(3), DType.INT8)
                                .target(TargetShape.parse("2,3"))
                                .broadcastAxes(0)
                                .build(),
                        OptionalInt.empty()),
                List.of()));
        BroadcastRequest pdpd = ManifestRequests.toRequest(manifest(
                ManifestRequests.of(
                        BroadcastRequest.builder(Dialect.OPENVINO)
                                .input(Shape.of(3), DType.INT8)
                                .target(TargetShape.parse("3,3"))
                                .mode(BroadcastMode.PDPD)
                                .axis(1)
                                .build(),
                        OptionalInt.empty()),
                List.of()));

        assertThat(ngraph.broadcastAxes()).contains(List.of(0L));
        assertThat(pdpd.axis().getAsLong()).isEqualTo(1);
    }

    @Test
    void writesEveryArgumentInItsNotationAndOrderWithTheInput() throws Exception {
        BroadcastRequest request = BroadcastRequest.builder(Dialect.OPENVINO)
                .input(Shape.of(3), DType.INT8)
                .input(Shape.of(1, 3), DType.INT8)
                .target(TargetShape.parse("2,3"))
                .mode(BroadcastMode.PDPD)
                .axis(-1)
                .axesMapping(1)
                .broadcastAxes(0, 1)
                .build();

        Map<String, String> map = ManifestRequests.of(request, OptionalInt.of(1));
        Manifest manifest = new Manifest(
                Manifest.FORMAT_VERSION,
                "test",
                "now",
                map,
                List.of(
                        new Manifest.ManifestInput("a.npy", List.of(3L), "int8"),
                        new Manifest.ManifestInput("b.npy", List.of(1L, 3L), "int8")),
                List.of(2L, 3L),
                "int8",
                6,
                6,
                1,
                List.of(3L),
                0,
                "arrow",
                "none",
                1,
                List.of());
        Manifest read = ManifestJson.read(new ByteArrayInputStream(ManifestJson.toBytes(manifest)), "m");

        assertThat(map)
                .containsExactly(
                        entry("dialect", "openvino"),
                        entry("shape", "[2,3]"),
                        entry("mode", "pdpd"),
                        entry("axes_mapping", "[1]"),
                        entry("broadcast_axes", "[0,1]"),
                        entry("axis", "-1"),
                        entry("input", "1"));
        assertThat(manifest.request()).containsExactlyEntriesOf(map);
        assertThat(read.request()).containsExactlyEntriesOf(map);
        assertThat(ManifestRequests.inputIndex(read)).isEqualTo(1);
        assertThat(ManifestRequests.of(
                        BroadcastRequest.builder(Dialect.NUMPY)
                                .input(Shape.of(3))
                                .build(),
                        OptionalInt.empty()))
                .containsExactly(entry("dialect", "numpy"));
    }

    @Test
    void aNullRequestValueIsRefused() {
        Map<String, String> request = new HashMap<>();
        request.put("dialect", null);

        assertThatThrownBy(() -> manifest(request, List.of()))
                .isInstanceOf(ManifestException.class)
                .hasMessage("Cannot read manifest: its request has a null key or value: {dialect=null}");
    }

    @Test
    void namesWhatIsWrong() {
        assertThatThrownBy(() -> ManifestRequests.toRequest(manifest(Map.of("shape", "[2,3]"), List.of())))
                .isInstanceOf(ManifestException.class)
                .hasMessage("Cannot rebuild the request from the manifest: it has no 'dialect' key; it has [shape]");
        assertThatThrownBy(() -> ManifestRequests.toRequest(
                        manifest(Map.of("dialect", "ngraph", "broadcast_axes", "[x]"), List.of())))
                .hasMessage("Cannot read manifest request key 'broadcast_axes': 'x' is not an integer");
        assertThatThrownBy(() ->
                        ManifestRequests.inputIndex(manifest(Map.of("dialect", "numpy", "input", "1"), List.of())))
                .hasMessage("Cannot use manifest request key 'input' = 1: the manifest lists 1 inputs");
    }
}
