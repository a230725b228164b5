package dev.tensorbroadcast.localcluster;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a standalone master reports about itself at {@code /json/} on its web UI: its URL, its live workers and the
 * applications it runs. The UI listens on loopback only.
 */
public record MasterStatus(String url, int aliveWorkers, List<String> activeApplications) {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public MasterStatus {
        requireNonNull(url, "url is null");
        activeApplications = List.copyOf(activeApplications);
    }

    /** The status of the master whose web UI is at {@code uiPort} on 127.0.0.1, or empty if it does not answer. */
    public static Optional<MasterStatus> query(int uiPort) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + uiPort + "/json/"))
                .timeout(Duration.ofSeconds(5)).GET().build();
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return Optional.empty();
            }
            return Optional.of(parse(response.body()));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    static MasterStatus parse(String json) throws IOException {
        JsonNode root = MAPPER.readTree(json);
        List<String> applications = new ArrayList<>();
        root.path("activeapps").forEach(app -> applications.add(app.path("id").asText()));
        return new MasterStatus(root.path("url").asText(), root.path("aliveworkers").asInt(), applications);
    }
}
