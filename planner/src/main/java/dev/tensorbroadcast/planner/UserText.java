package dev.tensorbroadcast.planner;

/**
 * Outside text (what a user typed, names read from a file) as an error message shows it: on one line, with line breaks
 * and other control characters escaped, so a message can never spill onto a second line.
 */
public final class UserText {
    static final int MAX_SHOWN = 60;

    private UserText() {}

    /** {@code text} on one line and at most {@value #MAX_SHOWN} characters long. */
    public static String shown(String text) {
        if (text == null) {
            return "null";
        }
        String line = escaped(text, MAX_SHOWN + 1);
        return line.length() <= MAX_SHOWN ? line : line.substring(0, MAX_SHOWN - 3) + "...";
    }

    /** {@code text} with line breaks and other control characters escaped, whatever its length. */
    public static String oneLine(String text) {
        return text == null ? "null" : escaped(text, Integer.MAX_VALUE);
    }

    /** Escapes until the result is at least {@code limit} characters long. */
    private static String escaped(String text, int limit) {
        StringBuilder line = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean control = Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
            if (line == null) {
                if (!control && i < limit) {
                    continue;
                }
                line = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (line.length() >= limit) {
                break;
            }
            switch (c) {
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                default -> line.append(control ? String.format("\\u%04X", (int) c) : String.valueOf(c));
            }
        }
        return line == null ? text : line.toString();
    }
}
