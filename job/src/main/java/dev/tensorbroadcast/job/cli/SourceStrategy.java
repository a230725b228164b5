package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.source.ArrayRows;
import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.io.PrintWriter;
import java.util.Optional;

/**
 * How {@code expand} would get a dataset input to its tasks, as {@code plan} shows it: shipped whole (up to the ship
 * threshold), or read by the tasks in slices, with the fewest and most bytes of source files one task reads.
 */
record SourceStrategy(
        String strategy,
        int files,
        long rows,
        long fileBytes,
        long valueBytes,
        long shipThreshold,
        long minTaskBytes,
        long maxTaskBytes,
        Optional<String> array) {
    static SourceStrategy of(TensorDataset dataset, BroadcastPlan plan, PartitionPlan partitions, long shipThreshold) {
        boolean shipped = dataset.valueBytes() <= shipThreshold;
        long min = Long.MAX_VALUE;
        long max = 0;
        for (long p = 0; p < partitions.partitionCount(); p++) {
            long bytes = shipped ? 0 : dataset.bytesToRead(plan.sourceRows(0, partitions.partition(p)));
            min = Math.min(min, bytes);
            max = Math.max(max, bytes);
        }
        // an array (Zarr) read as rows: its one part is the array, its bytes the decoded chunks'
        Optional<String> array = dataset.parts().stream()
                .map(part -> part.format())
                .filter(ArrayRows.class::isInstance)
                .map(format -> format.description())
                .findFirst();
        return new SourceStrategy(
                shipped ? "broadcast" : "slices",
                dataset.parts().size(),
                dataset.rows(),
                dataset.fileBytes(),
                dataset.valueBytes(),
                shipThreshold,
                min,
                max,
                array);
    }

    void toJson(ObjectNode json) {
        ObjectNode source = json.putObject("source");
        source.put("strategy", strategy);
        source.put("files", files);
        array.ifPresent(name -> source.put("array", name));
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
        String what = array.map(name -> name + " array of " + Plural.of(rows, "row") + " (first dim), "
                        + ByteSize.format(fileBytes) + " decoded")
                .orElse("dataset of " + files + " file" + (files == 1 ? "" : "s") + ", " + Plural.of(rows, "row") + ", "
                        + ByteSize.format(fileBytes));
        out.println(String.format(format, "source", what + "; " + how));
        String reads = minTaskBytes == maxTaskBytes
                ? ByteSize.format(minTaskBytes)
                : ByteSize.format(minTaskBytes) + ".." + ByteSize.format(maxTaskBytes);
        out.println(String.format(
                format,
                "task reads",
                reads + (array.isPresent() ? " of decoded chunks each" : " of source files each")));
    }
}
