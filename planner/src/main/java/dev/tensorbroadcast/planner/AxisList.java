package dev.tensorbroadcast.planner;

import java.util.ArrayList;
import java.util.List;

/**
 * Axis lists as users type them (command-line options, data source options), in the shapes' notation:
 * {@code [0,2]}, {@code 0,2}, {@code []} for none.
 */
public final class AxisList {
    private AxisList() {}

    /** The axes of {@code text}; refused naming {@code option} (such as {@code broadcast axes}) and the text. */
    public static List<Long> parse(String option, String text) {
        String body = text.strip();
        if (body.startsWith("[") && body.endsWith("]")) {
            body = body.substring(1, body.length() - 1).strip();
        }
        List<Long> axes = new ArrayList<>();
        if (body.isEmpty()) {
            return axes;
        }
        for (String part : body.split(",", -1)) {
            try {
                axes.add(Long.parseLong(part.strip()));
            } catch (NumberFormatException e) {
                throw new InvalidRequestException("Cannot parse " + option + " '" + UserText.shown(text) + "': '"
                        + UserText.shown(part.strip()) + "' is not an integer; write it as [0,2], 0,2 or [] for"
                        + " none");
            }
        }
        return axes;
    }
}
