package dev.tensorbroadcast.localcluster.container;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the cluster reads from the master's JSON status page ({@code /json/}). */
public record MasterStatus(String status, int aliveWorkers) {
    private static final Pattern STATUS = Pattern.compile("\"status\"\\s*:\\s*\"([A-Z_]+)\"");
    private static final Pattern ALIVE_WORKERS = Pattern.compile("\"aliveworkers\"\\s*:\\s*(\\d+)");

    public MasterStatus {
        java.util.Objects.requireNonNull(status, "status is null");
        if (aliveWorkers < 0) {
            throw new IllegalArgumentException("aliveWorkers is negative: " + aliveWorkers);
        }
    }

    /** Parses the status page's JSON, or a raw HTTP response that carries it. */
    public static MasterStatus parse(String json) {
        Matcher status = STATUS.matcher(json);
        Matcher alive = ALIVE_WORKERS.matcher(json);
        if (!status.find() || !alive.find()) {
            throw new IllegalArgumentException("Cannot read the Spark master's status: no \"status\" and"
                    + " \"aliveworkers\" in '" + abbreviate(json) + "'");
        }
        return new MasterStatus(status.group(1), Integer.parseInt(alive.group(1)));
    }

    private static String abbreviate(String text) {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= 200 ? line : line.substring(0, 200) + "...";
    }
}
