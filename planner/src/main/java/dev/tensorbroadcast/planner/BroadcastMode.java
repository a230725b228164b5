package dev.tensorbroadcast.planner;

import java.util.Locale;

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
        return EnumNames.parse(values(), BroadcastMode::modeName, text, "Cannot parse mode");
    }

    @Override
    public String toString() {
        return modeName();
    }
}
