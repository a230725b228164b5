package dev.tensorbroadcast.planner;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The broadcast modes of OpenVINO's {@code Broadcast-3}; no other dialect takes a mode. */
public enum BroadcastMode {
    NUMPY,
    EXPLICIT,
    BIDIRECTIONAL,
    PDPD;

    public String modeName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static BroadcastMode parse(String text) {
        String key = text == null ? "" : text.strip().toUpperCase(Locale.ROOT);
        for (BroadcastMode mode : values()) {
            if (mode.name().equals(key)) {
                return mode;
            }
        }
        throw new InvalidRequestException("Cannot parse mode '" + text + "': expected one of "
                + Arrays.stream(values()).map(BroadcastMode::modeName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return modeName();
    }
}
