package dev.tensorbroadcast.planner;

import java.util.ArrayList;
import java.util.List;

/** Parsing and printing of dimension lists, shared by {@link Shape} and {@link TargetShape}. */
final class Dims {
    /** Longest text accepted for one shape; a hostile argument must not cost more than this. */
    static final int MAX_TEXT_LENGTH = 4096;

    private Dims() {}

    /** numpy's tuple notation, so users see shapes as they would print them: {@code ()}, {@code (5,)}, {@code (2,3)}. */
    static String tuple(long[] dims) {
        if (dims.length == 1) {
            return "(" + dims[0] + ",)";
        }
        StringBuilder text = new StringBuilder("(");
        for (int i = 0; i < dims.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(dims[i]);
        }
        return text.append(')').toString();
    }

    /** The bracket notation used on command lines and in JSON: {@code []}, {@code [5]}, {@code [2,3]}. */
    static String list(long[] dims) {
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < dims.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(dims[i]);
        }
        return text.append(']').toString();
    }

    /**
     * Parses {@code [2,3]}, {@code (2,3)}, {@code 2,3} or {@code 2x3}; {@code []}, {@code ()} and the empty string are
     * the scalar shape. Any integer is accepted here; the caller decides which values are allowed.
     */
    static long[] parse(String text, String what) {
        if (text == null) {
            throw new InvalidRequestException("Cannot parse " + what + ": it is missing");
        }
        if (text.length() > MAX_TEXT_LENGTH) {
            throw new InvalidRequestException("Cannot parse " + what + ": the text is " + text.length()
                    + " characters long; at most " + MAX_TEXT_LENGTH + " are accepted");
        }
        String body = text.strip();
        if ((body.startsWith("[") && body.endsWith("]")) || (body.startsWith("(") && body.endsWith(")"))) {
            body = body.substring(1, body.length() - 1).strip();
        }
        if (body.isEmpty()) {
            return new long[0];
        }
        String[] parts = body.split("[,x]", -1);
        List<Long> values = new ArrayList<>(parts.length);
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].strip();
            if (part.isEmpty()) {
                // numpy writes a one-element tuple as (5,): a single trailing comma is fine
                if (i == parts.length - 1 && i > 0) {
                    continue;
                }
                throw new InvalidRequestException("Cannot parse " + what + " '" + UserText.shown(text)
                        + "': empty dimension at position " + i + "; write it as [2,3], 2,3 or [] for a scalar");
            }
            try {
                values.add(Long.parseLong(part));
            } catch (NumberFormatException e) {
                throw new InvalidRequestException("Cannot parse " + what + " '" + UserText.shown(text) + "': '"
                        + UserText.shown(part) + "' " + notALong(part));
            }
        }
        if (values.size() > Shape.MAX_RANK) {
            throw new InvalidRequestException("Cannot parse " + what + " '" + UserText.shown(text) + "': it has "
                    + values.size() + " dimensions; at most " + Shape.MAX_RANK + " are supported");
        }
        long[] dims = new long[values.size()];
        for (int i = 0; i < dims.length; i++) {
            dims[i] = values.get(i);
        }
        return dims;
    }

    /** Why {@link Long#parseLong} refused: a number can be an integer and still not fit a {@code long}. */
    private static String notALong(String part) {
        if (part.matches("-\\d+")) {
            return "is too small; a dimension is at least " + Long.MIN_VALUE;
        }
        if (part.matches("\\+?\\d+")) {
            return "is too large; a dimension is at most " + Long.MAX_VALUE;
        }
        return "is not an integer; write it as [2,3], 2,3 or [] for a scalar";
    }
}
