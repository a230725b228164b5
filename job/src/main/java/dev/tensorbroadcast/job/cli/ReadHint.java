package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestRequests;
import dev.tensorbroadcast.job.store.Stores;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The line printed after a write that says how to read what was written. A dataset directory holds
 * {@code _manifest.json} and {@code _SUCCESS} beside its files, and only pyarrow (and Spark) skip names starting with
 * {@code _}: polars takes the directory's files for data ("different file extensions"), DuckDB's {@code DIR/*} and
 * Hugging Face's {@code data_dir} read {@code _SUCCESS} as Parquet. So the line names pyarrow's call on the directory
 * and the files' glob for the others. Those markers' names and places are the contract every reader of a dataset
 * relies on, so they stay; the line is how a reader finds the call that works.
 */
final class ReadHint {
    /** What {@code Dataset.save_to_disk} writes beside its shards, and no other writer of ours does. */
    private static final String HUGGING_FACE_INFO = "dataset_info.json";

    private ReadHint() {}

    /** The line for the dataset {@code manifest} describes, written in {@code directory}; none for an array. */
    static Optional<String> of(Manifest manifest, Path directory) {
        String location = readerLocation(directory);
        // a partitioned output's files lie under key=value directories
        String files = location
                + (manifest.request().containsKey(ManifestRequests.PARTITION_BY) ? "/**/*." : "/*.")
                + manifest.format();
        String markers = "the directory also holds " + Manifest.FILE_NAME + " and " + Manifest.SUCCESS_FILE_NAME;
        return switch (manifest.format()) {
            case "arrow" ->
                Optional.of("to read it: pyarrow.dataset.dataset('" + location + "', format='arrow'), or"
                        + " polars.scan_ipc('" + files + "') (" + markers + ")");
            case "parquet" ->
                Optional.of("to read it: pyarrow.parquet.read_table('" + location + "'), or '" + files
                        + "' in "
                        + (huggingFaceReads(manifest)
                                ? "polars, DuckDB and Hugging Face datasets"
                                : "polars and DuckDB")
                        + " (" + markers + ")");
            default -> Optional.empty();
        };
    }

    /**
     * When an input is a Hugging Face dataset ({@code save_to_disk}'s {@code dataset_info.json} in it) and the output
     * is a layout {@code datasets} cannot read back, the line that says so and which options write one it reads.
     */
    static Optional<String> huggingFace(Manifest manifest, Configuration conf) {
        if (huggingFaceReads(manifest) || manifest.format().equals("zarr")) {
            return Optional.empty();
        }
        for (Manifest.ManifestInput input : manifest.inputs()) {
            try {
                Path info = new Path(new Path(input.path()), HUGGING_FACE_INFO);
                if (info.getFileSystem(conf).exists(info)) {
                    return Optional.of("the input " + input.path() + " is a Hugging Face dataset, but datasets cannot"
                            + " read these rows back (it has no feature for arrow.fixed_shape_tensor); --format"
                            + " parquet --row-layout nested writes rows it reads");
                }
            } catch (IOException | IllegalArgumentException e) {
                // an input that cannot be looked at now only costs the hint
            }
        }
        return Optional.empty();
    }

    /**
     * Hugging Face {@code datasets} has no feature for Arrow's {@code arrow.fixed_shape_tensor}, so of our layouts it
     * reads nested Parquet rows only.
     */
    static boolean huggingFaceReads(Manifest manifest) {
        return manifest.format().equals("parquet") && Manifest.NESTED_ROWS.equals(manifest.rowLayout());
    }

    /** The path as Python's readers take it: the store of {@code directory} says how. */
    static String readerLocation(Path directory) {
        return Stores.forPath(directory).readerLocation(directory);
    }
}
