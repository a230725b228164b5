package dev.tensorbroadcast.localcluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a YARN ResourceManager reports about itself on its REST API, as a {@link MasterStatus}: the master is
 * {@code yarn}, its state the ResourceManager's ({@code STARTED}), its live workers the active NodeManagers and its
 * applications the ones accepted or running.
 */
public final class ResourceManagerStatus {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ResourceManagerStatus() {}

    /** The status of the ResourceManager whose web port on 127.0.0.1 is {@code webPort}, or empty if it does not answer. */
    public static Optional<MasterStatus> query(int webPort) {
        Optional<String> info = LoopbackHttp.get(webPort, "/ws/v1/cluster/info");
        Optional<String> metrics = LoopbackHttp.get(webPort, "/ws/v1/cluster/metrics");
        Optional<String> apps =
                LoopbackHttp.get(webPort, "/ws/v1/cluster/apps?states=NEW,NEW_SAVING,SUBMITTED," + "ACCEPTED,RUNNING");
        if (info.isEmpty() || metrics.isEmpty() || apps.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(info.get(), metrics.get(), apps.get()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The status from the bodies of {@code /ws/v1/cluster/info}, {@code /metrics} and {@code /apps}. */
    public static MasterStatus parse(String info, String metrics, String apps) {
        JsonNode state = read(info).path("clusterInfo").path("state");
        JsonNode activeNodes = read(metrics).path("clusterMetrics").path("activeNodes");
        if (!state.isTextual() || !activeNodes.isInt()) {
            throw new IllegalArgumentException("Cannot read the YARN ResourceManager's status: no clusterInfo.state"
                    + " and clusterMetrics.activeNodes in its answers");
        }
        List<String> applications = new ArrayList<>();
        read(apps)
                .path("apps")
                .path("app")
                .forEach(app -> applications.add(app.path("id").asText()));
        return new MasterStatus(YarnCluster.MASTER, state.asText(), activeNodes.asInt(), applications);
    }

    /** The ids ({@code host:port}) of the NodeManagers that run, as the ResourceManager on {@code webPort} lists them. */
    public static List<String> runningNodes(int webPort) {
        String body = LoopbackHttp.get(webPort, "/ws/v1/cluster/nodes?states=RUNNING")
                .orElseThrow(() ->
                        new LocalClusterException("Cannot list YARN's NodeManagers: the ResourceManager's web port "
                                + webPort + " on 127.0.0.1 does not answer"));
        List<String> nodes = new ArrayList<>();
        read(body)
                .path("nodes")
                .path("node")
                .forEach(node -> nodes.add(node.path("id").asText()));
        return nodes;
    }

    private static JsonNode read(String body) {
        try {
            return MAPPER.readTree(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read the YARN ResourceManager's status: " + e.getMessage(), e);
        }
    }
}
