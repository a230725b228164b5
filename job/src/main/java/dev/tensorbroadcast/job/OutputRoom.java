package dev.tensorbroadcast.job;

import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.TooLargeException;
import java.util.OptionalLong;

/**
 * The resource guards of a write, checked before anything is written, by {@code expand} and {@code reduce} alike: the
 * values must fit the output limit ({@code --max-output}), and the files the usable space of a local file system.
 */
final class OutputRoom {
    private OutputRoom() {}

    /**
     * @param valueBytes the bytes of tensor values to write
     * @param fileBytes the bytes of the files, uncompressed
     * @param target the output as the message names it
     * @param limit the output limit in bytes
     * @param usable the usable bytes where the files go, if that is known
     */
    static void require(long valueBytes, long fileBytes, String target, long limit, OptionalLong usable) {
        if (valueBytes > limit) {
            throw new TooLargeException("Cannot write " + ByteCounts.format(valueBytes) + " (" + bytes(valueBytes)
                    + ") to " + target + ": more than the output limit of " + ByteCounts.format(limit) + " ("
                    + bytes(limit) + "); raise it with " + Param.MAX_OUTPUT.named() + ", such as "
                    + Param.MAX_OUTPUT.given(suggestedBytes(valueBytes) + "L", suggestedLimit(valueBytes))
                    + ", or lift it with " + Param.MAX_OUTPUT.given("TensorBroadcast.NO_OUTPUT_LIMIT", "none"));
        }
        if (usable.isPresent() && fileBytes > usable.getAsLong()) {
            throw new OutputException("Cannot write " + ByteCounts.format(fileBytes) + " (" + fileBytes
                    + " bytes of files, uncompressed) to " + target + ": its file system has "
                    + ByteCounts.format(usable.getAsLong()) + " (" + usable.getAsLong() + " bytes) usable; free"
                    + " some space, choose another output, or pass "
                    + Param.mention("checkFreeSpace(false)", Param.IGNORE_FREE_SPACE.flag())
                    + " if compression will make it fit");
        }
    }

    private static String bytes(long count) {
        return count + (count == 1 ? " byte" : " bytes");
    }

    static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** A limit the user can type that allows {@code bytes}: whole units of the largest unit it reaches, rounded up. */
    private static String suggestedLimit(long bytes) {
        String units = "kmgt";
        int unit = suggestedUnit(bytes);
        return ceilDiv(bytes, 1L << (10 * unit)) + units.substring(unit - 1, unit);
    }

    /** The same limit in bytes, for a Java caller. */
    private static long suggestedBytes(long bytes) {
        int unit = suggestedUnit(bytes);
        return ceilDiv(bytes, 1L << (10 * unit)) << (10 * unit);
    }

    private static int suggestedUnit(long bytes) {
        return Math.min(4, Math.max(1, (63 - Long.numberOfLeadingZeros(Math.max(bytes, 1))) / 10));
    }

    private static long ceilDiv(long a, long b) {
        return a / b + (a % b == 0 ? 0 : 1);
    }
}
