package dev.tensorbroadcast.job.pipeline;

import org.apache.spark.Partitioner;

/**
 * Sends partial {@code i} to merge group {@code i / fanout}: each level of a reduce's tree merges {@code fanout}
 * consecutive partials, sorted by index, so the sums are added in the same order on every run.
 */
final class PartialGroups extends Partitioner {
    private static final long serialVersionUID = 1L;

    private final int groups;
    private final int fanout;

    PartialGroups(int groups, int fanout) {
        this.groups = groups;
        this.fanout = fanout;
    }

    @Override
    public int numPartitions() {
        return groups;
    }

    @Override
    public int getPartition(Object key) {
        return (int) ((Long) key / fanout);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PartialGroups that && groups == that.groups && fanout == that.fanout;
    }

    @Override
    public int hashCode() {
        return 31 * groups + fanout;
    }
}
