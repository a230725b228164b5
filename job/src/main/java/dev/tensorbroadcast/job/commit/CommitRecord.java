package dev.tensorbroadcast.job.commit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.job.base.Crc32c;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.job.store.Store;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What a commit that replaces a dataset in place (S3, where a move is a copy) is about to publish, written to
 * {@value #FILE_NAME} in the output before its first destructive step and deleted after its {@code _SUCCESS}: the
 * job, the files the tasks wrote with their sizes, the new manifest and array metadata, and the store's pending work
 * (S3A's uploads, not yet completed). From the moment it is written the commit only goes forward: a failure or a
 * SIGKILL after it leaves the record, and the next {@code --overwrite} of the output {@link #finish}es it (completes
 * what is still pending, deletes what is left of the old dataset, writes the manifest and {@code _SUCCESS}) before it
 * writes anything of its own; {@code inspect} says so. Before it is written the old dataset is untouched.
 */
@SuppressWarnings("ArrayRecordComponent") // bytes written and read back whole, never compared
public record CommitRecord(
        String job,
        Map<String, Long> files,
        Optional<String> arrayMetadataName,
        byte[] manifest,
        byte[] arrayMetadata,
        byte[] pending) {
    public static final String FILE_NAME = "_tensor-broadcast.commit";
    private static final String KIND = "tensor_broadcast";
    private static final String KIND_VALUE = "commit";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    public CommitRecord {
        requireNonNull(job, "job is null");
        files = Map.copyOf(requireNonNull(files, "files is null"));
        requireNonNull(arrayMetadataName, "arrayMetadataName is null");
        requireNonNull(manifest, "manifest is null");
        requireNonNull(pending, "pending is null");
        if (arrayMetadataName.isPresent() != (arrayMetadata != null)) {
            throw new IllegalArgumentException("an array's record has its metadata, and only an array's");
        }
    }

    /** Writes the record into {@code output}, whole. */
    public void write(Store store, FileSystem fileSystem, Path output) throws IOException {
        ObjectNode json = MAPPER.createObjectNode().put(KIND, KIND_VALUE).put("job", job);
        ObjectNode names = json.putObject("files");
        new TreeMap<>(files).forEach(names::put);
        arrayMetadataName.ifPresent(name -> json.put("array_metadata_name", name)
                .put("array_metadata", Base64.getEncoder().encodeToString(arrayMetadata)));
        json.put("manifest", Base64.getEncoder().encodeToString(manifest));
        json.put("pending", Base64.getEncoder().encodeToString(pending));
        store.publish(fileSystem, output, FILE_NAME, MAPPER.writeValueAsBytes(json));
    }

    /** The record in {@code output}, if a stopped commit left one there. */
    public static Optional<CommitRecord> find(FileSystem fileSystem, Path output) throws IOException {
        JsonNode json;
        try (InputStream in = fileSystem.open(new Path(output, FILE_NAME))) {
            json = MAPPER.readTree(in);
        } catch (FileNotFoundException e) {
            return Optional.empty();
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException("cannot read " + new Path(output, FILE_NAME) + ": " + e.getOriginalMessage(), e);
        }
        if (json == null || !KIND_VALUE.equals(json.path(KIND).asText(null))) {
            throw new IOException("cannot read " + new Path(output, FILE_NAME) + ": it is not a commit record");
        }
        Map<String, Long> files = new HashMap<>();
        json.path("files")
                .fields()
                .forEachRemaining(
                        entry -> files.put(entry.getKey(), entry.getValue().asLong()));
        Optional<String> metadataName =
                Optional.ofNullable(json.path("array_metadata_name").asText(null));
        return Optional.of(new CommitRecord(
                json.path("job").asText(),
                files,
                metadataName,
                bytes(json, "manifest"),
                metadataName.isPresent() ? bytes(json, "array_metadata") : null,
                bytes(json, "pending")));
    }

    private static byte[] bytes(JsonNode json, String field) throws IOException {
        String text = json.path(field).asText(null);
        if (text == null) {
            throw new IOException("cannot read a commit record: it has no '" + field + "'");
        }
        return Base64.getDecoder().decode(text);
    }

    /**
     * Finishes the commit this record describes, in {@code output}: the old markers go (again), the store
     * completes the pending work it still can, what is left of the old dataset goes, and once every file is there
     * with its size and (where it was not completed now) its checksum, the array metadata, the manifest and
     * {@code _SUCCESS} are written and the record deleted. Throws, leaving the record, when a file is not the new
     * one (its pending upload gone: aborted by a bucket rule, say).
     */
    public void finish(Store store, FileSystem fileSystem, Path output) throws IOException {
        store.beforeCommit(fileSystem, output, arrayMetadataName);
        Set<String> completed = store.completeRecorded(fileSystem, output, pending);
        Optional<Map<String, Long>> listed =
                store.afterCommit(fileSystem, output, job, files.keySet(), arrayMetadataName.isPresent());
        Manifest parsed = ManifestJson.read(new ByteArrayInputStream(manifest), FILE_NAME);
        Map<String, String> crcs = new HashMap<>();
        for (DatasetFile file : parsed.files()) {
            crcs.put(file.path(), file.crc32c());
        }
        for (Map.Entry<String, Long> file : files.entrySet()) {
            Path path = new Path(output, file.getKey());
            Long length = listed.isPresent() && !file.getKey().contains("/")
                    ? listed.get().get(file.getKey())
                    : length(fileSystem, path);
            if (length == null || length.longValue() != file.getValue()) {
                throw new IOException("cannot finish the commit of job " + job + ": " + file.getKey() + " is "
                        + (length == null ? "missing" : length + " bytes, not " + file.getValue()));
            }
            String crc = crcs.get(file.getKey());
            if (!completed.contains(file.getKey()) && crc != null && !crc.equals(Crc32c.of(fileSystem, path))) {
                throw new IOException("cannot finish the commit of job " + job + ": " + file.getKey()
                        + " is not the file the job wrote (its upload is gone)");
            }
        }
        if (arrayMetadataName.isPresent()) {
            store.publish(fileSystem, output, arrayMetadataName.get(), arrayMetadata);
        }
        store.publish(fileSystem, output, Manifest.FILE_NAME, manifest);
        store.publish(fileSystem, output, Manifest.SUCCESS_FILE_NAME, new byte[0]);
        delete(store, fileSystem, output);
    }

    /** Deletes the record in {@code output}: its commit is done, or will not be finished. */
    public static void delete(Store store, FileSystem fileSystem, Path output) throws IOException {
        store.deleteFile(fileSystem, output, new Path(output, FILE_NAME));
    }

    private static Long length(FileSystem fileSystem, Path path) throws IOException {
        try {
            FileStatus status = fileSystem.getFileStatus(path);
            return status.isFile() ? status.getLen() : null;
        } catch (FileNotFoundException e) {
            return null;
        }
    }
}
