package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.UserText;
import java.util.ArrayList;
import java.util.List;

/** Axis lists on the command line, in the shapes' notation: {@code [0,2]}, {@code 0,2}, {@code []} for none. */
final class AxisList {
    private AxisList() {}

    static List<Long> parse(String option, String text) {
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
