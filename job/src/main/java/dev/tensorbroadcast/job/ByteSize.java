package dev.tensorbroadcast.job;

import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.UserText;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte counts as users write them ({@code 128m}, {@code 4096}; binary units) and read them ({@code 1.0 GiB}). */
public final class ByteSize {
    private static final Pattern SIZE = Pattern.compile("(\\d+)([kmgt]?)");

    private ByteSize() {}

    /** Parses a count of bytes with an optional k, m, g or t (powers of 1024), in either case. */
    public static long parse(String what, String text) {
        Matcher matcher = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!matcher.matches()) {
            throw new InvalidRequestException("Cannot parse " + what + " '" + UserText.shown(text)
                    + "': write a number of bytes with an optional k, m, g or t (binary units), such as 128m or 4096");
        }
        String unit = matcher.group(2);
        try {
            long number = Long.parseLong(matcher.group(1));
            return unit.isEmpty() ? number : Math.multiplyExact(number, 1L << (10 * ("kmgt".indexOf(unit) + 1)));
        } catch (NumberFormatException | ArithmeticException e) {
            throw new InvalidRequestException("Cannot parse " + what + " '" + UserText.shown(text) + "': it exceeds "
                    + Long.MAX_VALUE + " bytes");
        }
    }

    /** {@code 48 B}, {@code 1.5 KiB}, {@code 3.6 PiB}: one decimal in the largest unit that keeps the number >= 1. */
    public static String format(long bytes) {
        return ByteCounts.format(bytes);
    }
}
