package dev.tensorbroadcast.job.sink;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * Where a partitioned output's files go, as Spark's {@code partitionBy} lays them out: the output rows from
 * {@code starts[i]} up to the next start lie under {@code directories[i]} ({@code key=value/...}, escaped as Spark
 * escapes them). The partitions are cut at every start, so each file lies under exactly one directory.
 *
 * @param keys the partition-by keys, outermost first
 * @param starts the first output row of each run of equal key values, 0 first, increasing
 * @param directories each run's relative directory, such as {@code day=2024-03-01/bucket=1}
 */
@SuppressWarnings("ArrayRecordComponent") // starts is copied in and out; a partitioning is shipped, never compared
public record OutputPartitions(List<String> keys, long[] starts, List<String> directories) implements Serializable {
    public OutputPartitions {
        keys = List.copyOf(keys);
        requireNonNull(starts, "starts is null");
        starts = starts.clone();
        directories = List.copyOf(directories);
        if (keys.isEmpty() || starts.length != directories.size()) {
            throw new IllegalArgumentException("a partitioned output has keys and one directory per run: " + keys + ", "
                    + starts.length + " runs, " + directories.size() + " directories");
        }
        for (int i = 0; i < starts.length; i++) {
            if (i == 0 ? starts[0] != 0 : starts[i] <= starts[i - 1]) {
                throw new IllegalArgumentException(
                        "runs start at 0 and at increasing rows: " + Arrays.toString(starts));
            }
        }
    }

    @Override
    public long[] starts() {
        return starts.clone();
    }

    /** The relative directory of the file whose rows start at output row {@code firstRow}. */
    public String directoryOf(long firstRow) {
        int found = Arrays.binarySearch(starts, firstRow);
        return directories.get(found >= 0 ? found : -found - 2);
    }
}
