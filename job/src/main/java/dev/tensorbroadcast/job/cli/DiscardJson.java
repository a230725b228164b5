package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.job.base.DiscardedBroadcast;
import dev.tensorbroadcast.job.pipeline.DiscardJob;
import java.util.List;

/** The {@code --json} result of {@code --format null}: per dataset its counts and each partition's checksum. */
final class DiscardJson {
    private DiscardJson() {}

    /** {@code seconds} counts from before Spark starts, {@code job_seconds} from when its session is ready. */
    static ObjectNode of(List<DiscardedBroadcast> results, double seconds, double jobSeconds) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        json.put("format", DiscardJob.FORMAT_NAME);
        json.put("seconds", Math.round(seconds * 1000) / 1000.0);
        json.put("job_seconds", Math.round(jobSeconds * 1000) / 1000.0);
        if (results.size() == 1) {
            json.setAll(dataset(results.get(0)));
        } else {
            ArrayNode datasets = json.putArray("datasets");
            results.forEach(result -> datasets.add(dataset(result)));
        }
        return json;
    }

    private static ObjectNode dataset(DiscardedBroadcast result) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        ArrayNode shape = json.putArray("shape");
        result.shape().forEach(shape::add);
        json.put("dtype", result.dtype());
        json.put("rows", result.rows());
        json.put("bytes", result.filledBytes());
        ArrayNode partitions = json.putArray("partitions");
        for (DiscardedBroadcast.Partition partition : result.partitions()) {
            ObjectNode entry = partitions.addObject();
            entry.put("partition", partition.partition());
            entry.put("first_row", partition.firstRow());
            entry.put("rows", partition.rows());
            entry.put("bytes", partition.valueBytes());
            entry.put("batches", partition.batches());
            entry.put("crc32c", partition.crc32c());
        }
        return json;
    }
}
