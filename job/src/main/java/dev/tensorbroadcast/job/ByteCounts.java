package dev.tensorbroadcast.job;

import java.util.Locale;

/** Byte counts as people read them: {@code 48 B}, {@code 1.5 KiB}, {@code 3.6 PiB} (binary units). */
public final class ByteCounts {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private ByteCounts() {}

    /** One decimal in the largest unit that keeps the number at 1 or more. */
    public static String format(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        int unit = (63 - Long.numberOfLeadingZeros(bytes)) / 10;
        return String.format(Locale.ROOT, "%.1f %s", bytes / Math.pow(1024, unit), UNITS[unit]);
    }
}
