package dev.tensorbroadcast.job.dataset;

import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.TensorFileFormats;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowIpcFormat;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetFormat;
import dev.tensorbroadcast.job.commit.OutputLock;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.base.Locations;
import dev.tensorbroadcast.job.sink.OutputFormat;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A directory of Arrow IPC or Parquet files another tool wrote (pyarrow, Spark, DuckDB): no manifest, no trace of a
 * write of ours, and files not named as ours are. Not a dataset of ours that is incomplete, but an input {@code expand
 * --input} reads. Told apart by names and the files' first bytes only.
 *
 * @param parquetFiles the Parquet files in it
 * @param arrowFiles the Arrow IPC files in it
 */
public record ForeignFiles(int parquetFiles, int arrowFiles) {
    /** Where Hadoop's committer keeps the attempts of a write until the job commits: a write unfinished. */
    private static final String UNFINISHED_WRITE = "_temporary";

    public ForeignFiles {
        if (parquetFiles < 0 || arrowFiles < 0 || parquetFiles + arrowFiles == 0) {
            throw new IllegalArgumentException("a foreign dataset holds files: " + parquetFiles + " Parquet, "
                    + arrowFiles + " Arrow");
        }
    }

    /**
     * The foreign files of {@code dir}, or empty when it is not such a directory (or cannot be read: then opening
     * it as a dataset says why). Files whose names start with {@code _} or {@code .} are skipped, as Spark and
     * pyarrow skip them ({@code _SUCCESS}, checksums).
     */
    public static Optional<ForeignFiles> find(String dir, Configuration conf) {
        try {
            Path path = Locations.locate("dataset", dir, conf).path();
            try (FileSystem fileSystem = FileSystem.newInstance(path.toUri(), conf)) {
                if (!fileSystem.getFileStatus(path).isDirectory()) {
                    return Optional.empty();
                }
                FileStatus[] statuses = fileSystem.listStatus(path);
                boolean ours = Arrays.stream(statuses).map(status -> status.getPath().getName())
                        .anyMatch(name -> name.equals(Manifest.FILE_NAME) || name.equals(UNFINISHED_WRITE)
                                || name.equals(OutputLock.FILE_NAME));
                if (ours) {
                    return Optional.empty();
                }
                int parquet = 0;
                int arrow = 0;
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
                    if (format.filter(ParquetFormat.class::isInstance).isPresent()) {
                        parquet++;
                    } else if (format.filter(ArrowIpcFormat.class::isInstance).isPresent()) {
                        arrow++;
                    } else {
                        return Optional.empty();
                    }
                    allNamedAsOurs &= OutputFormat.isPartFileName(name);
                }
                // our own files without their manifest are an incomplete dataset of ours, not another tool's
                return parquet + arrow == 0 || allNamedAsOurs ? Optional.empty()
                        : Optional.of(new ForeignFiles(parquet, arrow));
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code 3 Parquet files}, {@code 1 Arrow IPC file and 2 Parquet files}. */
    public String describe() {
        String parquet = parquetFiles == 0 ? "" : parquetFiles + " Parquet file" + (parquetFiles == 1 ? "" : "s");
        String arrow = arrowFiles == 0 ? "" : arrowFiles + " Arrow IPC file" + (arrowFiles == 1 ? "" : "s");
        return arrow.isEmpty() ? parquet : parquet.isEmpty() ? arrow : arrow + " and " + parquet;
    }
}
