package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.arrowio.source.TensorDataset;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.io.PrintWriter;

/**
 * How {@code expand} would get a dataset input to its tasks, as {@code plan} shows it: shipped whole (up to the ship
 * threshold), or read by the tasks in slices, with the fewest and most bytes of source files one task reads.
 */
record SourceStrategy(String strategy, int files, long rows, long fileBytes, long valueBytes, long shipThreshold,
        long minTaskBytes, long maxTaskBytes) {
    static SourceStrategy of(TensorDataset dataset, BroadcastPlan plan, PartitionPlan partitions, long shipThreshold) {
        boolean shipped = dataset.valueBytes() <= shipThreshold;
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long p = 0; p < partitions.partitionCount(); p++) {
            long bytes = shipped ? 0 : dataset.bytesToRead(plan.sourceRows(0, partitions.partition(p)));
            min = Math.min(min, bytes);
            max = Math.max(max, bytes);
        }
        return new SourceStrategy(shipped ? "broadcast" : "slices", dataset.parts().size(), dataset.rows(),
                dataset.fileBytes(), dataset.valueBytes(), shipThreshold, min, max);
    }

    void toJson(ObjectNode json) {
        ObjectNode source = json.putObject("source");
        source.put("strategy", strategy);
        source.put("files", files);
        source.put("rows", rows);
        source.put("file_bytes", fileBytes);
        source.put("value_bytes", valueBytes);
        source.put("ship_threshold", shipThreshold);
        source.putObject("task_read_bytes").put("min", minTaskBytes).put("max", maxTaskBytes);
    }

    void printText(PrintWriter out, String format) {
        String how = strategy.equals("broadcast")
                ? "shipped whole to every executor (" + ByteSize.format(valueBytes) + ", up to the ship threshold of "
                        + ByteSize.format(shipThreshold) + ")"
                : "read in slices by the tasks (" + ByteSize.format(valueBytes) + ", over the ship threshold of "
                        + ByteSize.format(shipThreshold) + ")";
        out.println(String.format(format, "source", "dataset of " + files + " file" + (files == 1 ? "" : "s") + ", "
                + Plural.of(rows, "row") + ", " + ByteSize.format(fileBytes) + "; " + how));
        String reads = minTaskBytes == maxTaskBytes ? ByteSize.format(minTaskBytes)
                : ByteSize.format(minTaskBytes) + ".." + ByteSize.format(maxTaskBytes);
        out.println(String.format(format, "task reads", reads + " of source files each"));
    }
}
