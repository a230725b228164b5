package dev.tensorbroadcast.job.base;

import java.util.ArrayList;
import java.util.List;

/** A {@link Progress} that writes down what it is told, in order, for tests of whoever tells it. */
public final class HeardProgress implements Progress {
    private final List<String> events = new ArrayList<>();

    /** What it heard: {@code started <description> <partitions> <bytes>}, {@code advanced <done> <bytes>}, {@code finished}. */
    public List<String> events() {
        return events;
    }

    @Override
    public void started(String description, long partitions, long bytes) {
        events.add("started " + description + " " + partitions + " " + bytes);
    }

    @Override
    public void advanced(long partitionsDone, long valueBytes) {
        events.add("advanced " + partitionsDone + " " + valueBytes);
    }

    @Override
    public void finished() {
        events.add("finished");
    }
}
