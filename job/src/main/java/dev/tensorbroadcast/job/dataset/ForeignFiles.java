package dev.tensorbroadcast.job.dataset;

import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.sink.PartFileNames;
import dev.tensorbroadcast.job.store.Locations;
import dev.tensorbroadcast.job.store.Stores;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A directory of dataset files another tool wrote (pyarrow, Spark, DuckDB), in any format {@link TensorFileFormats}
 * knows: no manifest, no trace of a write of ours, and files not named as ours are. Not a dataset of ours that is
 * incomplete, but an input {@code expand --input} reads. Told apart by names and the files' first bytes only.
 *
 * @param files how many files of each format it holds, in the registry's order; only formats it has files of
 */
public record ForeignFiles(Map<DatasetFileFormat, Integer> files) {
    /** Where Hadoop's committer keeps the attempts of a write until the job commits: a write unfinished. */
    private static final String UNFINISHED_WRITE = "_temporary";

    public ForeignFiles {
        if (files.isEmpty() || files.values().stream().anyMatch(count -> count <= 0)) {
            throw new IllegalArgumentException("a foreign dataset holds files: " + files);
        }
        files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
    }

    /**
     * The foreign files of {@code dir}, or empty when it is not such a directory (or cannot be read: then opening
     * it as a dataset says why). Files whose names start with {@code _} or {@code .} are skipped, as Spark and
     * pyarrow skip them ({@code _SUCCESS}, checksums).
     */
    public static Optional<ForeignFiles> find(String dir, Configuration conf) {
        try {
            Path path = Locations.locate("dataset", dir, conf).path();
            try (FileSystem fileSystem =
                    FileSystem.newInstance(path.toUri(), Stores.forPath(path).settings(conf))) {
                if (!fileSystem.getFileStatus(path).isDirectory()) {
                    return Optional.empty();
                }
                FileStatus[] statuses = fileSystem.listStatus(path);
                boolean ours = Arrays.stream(statuses)
                        .map(status -> status.getPath().getName())
                        .anyMatch(name -> name.equals(Manifest.FILE_NAME)
                                || name.equals(UNFINISHED_WRITE)
                                || name.equals(OutputLock.FILE_NAME)
                                || PartFileNames.isArrayMetadataName(name));
                if (ours) {
                    return Optional.empty();
                }
                Map<DatasetFileFormat, Integer> counts = new LinkedHashMap<>();
                TensorFileFormats.datasetFormats().forEach(format -> counts.put(format, 0));
                boolean allNamedAsOurs = true;
                for (FileStatus status : statuses) {
                    String name = status.getPath().getName();
                    if (name.startsWith("_") || name.startsWith(".")) {
                        continue;
                    }
                    if (!status.isFile()) {
                        return Optional.empty();
                    }
                    byte[] head;
                    try (InputStream in = fileSystem.open(status.getPath())) {
                        head = in.readNBytes(TensorFileFormats.headBytes());
                    }
                    Optional<DatasetFileFormat> format = TensorFileFormats.forFile(head);
                    if (format.isEmpty()) {
                        return Optional.empty();
                    }
                    counts.merge(format.get(), 1, Integer::sum);
                    allNamedAsOurs &= PartFileNames.isOurs(name);
                }
                counts.values().removeIf(count -> count == 0);
                // our own files without their manifest are an incomplete dataset of ours, not another tool's
                return counts.isEmpty() || allNamedAsOurs ? Optional.empty() : Optional.of(new ForeignFiles(counts));
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The files of the format named {@code format} ({@code parquet}, {@code arrow}), 0 when none. */
    public int count(String format) {
        return files.entrySet().stream()
                .filter(entry -> entry.getKey().name().equals(format))
                .mapToInt(Map.Entry::getValue)
                .sum();
    }

    /** {@code 3 Parquet files}, {@code 1 Arrow IPC file and 2 Parquet files}: in the registry's order. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        files.forEach(
                (format, count) -> parts.add(count + " " + format.description() + " file" + (count == 1 ? "" : "s")));
        return parts.size() == 1
                ? parts.get(0)
                : String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }
}
