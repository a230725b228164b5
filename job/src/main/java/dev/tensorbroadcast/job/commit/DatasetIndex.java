package dev.tensorbroadcast.job.commit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.job.base.JobFailedException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.store.Stores;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.apache.hadoop.fs.FSError;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code datasets.json}: what a run that writes one dataset per input ({@code broadcast-tensors}, {@code reduce} of
 * several inputs) leaves in the parent directory once every dataset is committed. It names the datasets, and it is
 * there so that the parent does not read as one dataset: pyarrow's directory reader skips only names starting with
 * {@code _} or {@code .}, so it stops at this file instead of silently merging {@code 0/} and {@code 1/} into one
 * table, and polars refuses a directory of mixed file extensions.
 */
public final class DatasetIndex {
    public static final String FILE_NAME = "datasets.json";
    private static final String KIND = "tensor_broadcast";
    private static final String KIND_VALUE = "datasets";
    /** Far more than an index of datasets ever holds; a larger file is someone else's. */
    static final int MAX_BYTES = 1 << 20;

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private DatasetIndex() {}

    /** Writes the index of {@code datasets}, subdirectories of {@code parent}, whole (as its store publishes). */
    public static void write(FileSystem output, Path parent, List<String> datasets) {
        ObjectNode index = MAPPER.createObjectNode().put(KIND, KIND_VALUE);
        datasets.forEach(index.putArray("datasets")::add);
        index.put(
                "read",
                "each directory listed is one dataset: read each by its own path; this directory is not a"
                        + " dataset");
        try {
            // whole, as the datasets' manifests (and as their own files: no .crc side file beside it)
            Stores.forPath(parent).publish(output, parent, FILE_NAME, MAPPER.writeValueAsBytes(index));
        } catch (IOException | FSError e) {
            throw new JobFailedException(
                    "Cannot finish '" + parent + "': its datasets are committed, but its " + FILE_NAME
                            + " could not be written: " + Reasons.of(e),
                    e);
        }
    }

    /** Whether {@code path} is an index this tool wrote: a small JSON object that says it is one. */
    static boolean isOurs(FileSystem fileSystem, Path path) throws IOException {
        try (InputStream in = fileSystem.open(path)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                return false;
            }
            JsonNode tree = MAPPER.readTree(bytes);
            return tree != null
                    && tree.isObject()
                    && KIND_VALUE.equals(tree.path(KIND).asText(null));
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            return false;
        }
    }
}
