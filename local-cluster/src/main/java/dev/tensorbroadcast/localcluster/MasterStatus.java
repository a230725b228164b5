package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a standalone master reports about itself at {@code /json/} on its web UI: its URL, its state ({@code ALIVE}),
 * its live workers and the applications it runs. Both backends read it: the process cluster over HTTP on loopback,
 * the container cluster as a raw HTTP response fetched inside its network. A YARN cluster says the same of itself
 * ({@link ResourceManagerStatus}): its NodeManagers are the workers.
 */
public record MasterStatus(String url, String status, int aliveWorkers, List<String> activeApplications) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public MasterStatus {
        requireNonNull(url, "url is null");
        requireNonNull(status, "status is null");
        if (aliveWorkers < 0) {
            throw new IllegalArgumentException("aliveWorkers is negative: " + aliveWorkers);
        }
        activeApplications = List.copyOf(activeApplications);
    }

    /** The status of the master whose web UI is at {@code uiPort} on 127.0.0.1, or empty if it does not answer. */
    public static Optional<MasterStatus> query(int uiPort) {
        try {
            return LoopbackHttp.get(uiPort, "/json/").map(MasterStatus::parse);
        } catch (IllegalArgumentException e) {
            // not a master's page: the caller waits or reports
            return Optional.empty();
        }
    }

    /** Parses the status page: its JSON body, alone or after the HTTP response's status line and headers. */
    public static MasterStatus parse(String response) {
        int body = response.indexOf('{');
        JsonNode root = null;
        if (body >= 0) {
            try {
                root = MAPPER.readTree(response.substring(body));
            } catch (IOException e) {
                root = null;
            }
        }
        if (root == null || !root.has("status") || !root.has("aliveworkers")) {
            throw new IllegalArgumentException("Cannot read the Spark master's status: no \"status\" and"
                    + " \"aliveworkers\" in '" + abbreviate(response) + "'");
        }
        List<String> applications = new ArrayList<>();
        root.path("activeapps").forEach(app -> applications.add(app.path("id").asText()));
        return new MasterStatus(
                root.path("url").asText(),
                root.path("status").asText(),
                root.path("aliveworkers").asInt(),
                applications);
    }

    private static String abbreviate(String text) {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= 200 ? line : line.substring(0, 200) + "...";
    }
}
