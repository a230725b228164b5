package dev.tensorbroadcast.job.cli;

/** A count with its noun, as a line says it: "1 partition", "0 partitions", "3 partitions". */
final class Plural {
    private Plural() {}

    /** {@code count} and {@code noun}, with an s unless the count is one; the noun's plural takes only an s. */
    static String of(long count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}
