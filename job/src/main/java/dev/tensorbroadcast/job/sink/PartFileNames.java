package dev.tensorbroadcast.job.sink;

import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.TensorFileFormats;
import dev.tensorbroadcast.job.manifest.Manifest;

/** The names our tasks give a dataset's files: which names in a directory are ours. */
public final class PartFileNames {
    private PartFileNames() {}

    /**
     * Whether {@code name} is what a task of ours names a partition's file: {@code part-00000.arrow},
     * {@code part-00001.parquet}, or the extension of another registered dataset format.
     */
    public static boolean isOurs(String name) {
        if (!name.startsWith(Manifest.PART_PREFIX)) {
            return false;
        }
        for (DatasetFileFormat format : TensorFileFormats.datasetFormats()) {
            if (name.endsWith(format.extension())) {
                String digits = name.substring(Manifest.PART_PREFIX.length(),
                        name.length() - format.extension().length());
                return digits.length() >= 5 && digits.chars().allMatch(c -> c >= '0' && c <= '9');
            }
        }
        return false;
    }
}
