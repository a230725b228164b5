package dev.tensorbroadcast.arrowio.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;

/**
 * A directory Hugging Face {@code datasets} wrote with {@code Dataset.save_to_disk}: its shards
 * ({@code data-00000-of-00002.arrow}, Arrow IPC streams) are the files {@code state.json} lists under
 * {@code _data_files}, in that order; {@code state.json} and {@code dataset_info.json} are its own and not data.
 */
final class HuggingFaceDirectory {
    static final String STATE = "state.json";
    private static final long MAX_STATE_BYTES = 16 << 20;

    private HuggingFaceDirectory() {}

    /**
     * The shards in order when {@code files} (a directory's listing) is a {@code save_to_disk} directory, else empty.
     * A shard the state names that is not there is refused, naming it.
     */
    static Optional<List<FileStatus>> shards(FileSystem fileSystem, String location, List<FileStatus> files)
            throws IOException {
        FileStatus state = files.stream()
                .filter(file -> file.getPath().getName().equals(STATE))
                .findFirst()
                .orElse(null);
        if (state == null || state.getLen() > MAX_STATE_BYTES) {
            return Optional.empty();
        }
        JsonNode dataFiles;
        try (InputStream in = fileSystem.open(state.getPath())) {
            dataFiles = new ObjectMapper().readTree(in).get("_data_files");
        } catch (IOException e) {
            // not the state of a save_to_disk directory: the directory is read as any other
            return Optional.empty();
        }
        if (dataFiles == null || !dataFiles.isArray()) {
            return Optional.empty();
        }
        List<FileStatus> shards = new ArrayList<>();
        for (JsonNode entry : dataFiles) {
            String name = entry.path("filename").asText("");
            FileStatus shard = files.stream()
                    .filter(file -> file.getPath().getName().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new SourceFormatException(
                            location,
                            "its " + STATE + " (a Hugging Face" + " save_to_disk directory) names the shard '" + name
                                    + "', which is not there"));
            shards.add(shard);
        }
        return Optional.of(shards);
    }
}
