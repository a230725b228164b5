package dev.tensorbroadcast.job.cli;

/** A count and its noun, singular for one: "1 partition", "0 partitions", "2 partitions". */
final class Plural {
    private Plural() {}

    static String of(long count, String noun) {
        return of(count, noun, noun + "s");
    }

    /** For a noun whose plural is not its singular and an s: "1 copy", "4 copies". */
    static String of(long count, String one, String many) {
        return count + " " + (count == 1 ? one : many);
    }
}
