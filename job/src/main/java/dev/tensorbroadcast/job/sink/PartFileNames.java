package dev.tensorbroadcast.job.sink;

import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.job.manifest.Manifest;

/**
 * The names our tasks give a dataset's files: which names in a directory are ours. A dataset's part files, or an
 * array's metadata, its staged copy and its chunk directory.
 */
public final class PartFileNames {
    /** Where an array's chunk objects are: {@code c/0/1}, or {@code c} for a scalar. */
    public static final String CHUNK_DIRECTORY = "c";

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
                String digits = name.substring(
                        Manifest.PART_PREFIX.length(),
                        name.length() - format.extension().length());
                return digits.length() >= 5 && digits.chars().allMatch(c -> c >= '0' && c <= '9');
            }
        }
        return false;
    }

    /**
     * Whether {@code name}, at the top of an output, is what an array format of ours writes there: its metadata
     * ({@code zarr.json}), the staged copy of it, or its chunk directory.
     */
    public static boolean isArrayName(String name) {
        return name.equals(CHUNK_DIRECTORY) || isArrayMetadataName(name);
    }

    /** Whether {@code name} is an array format's metadata ({@code zarr.json}) or the staged copy of it. */
    public static boolean isArrayMetadataName(String name) {
        for (ArrayFileFormat format : TensorFileFormats.arrayFormats()) {
            if (name.equals(format.metadataName()) || name.equals(format.metadataName() + Manifest.STAGED_SUFFIX)) {
                return true;
            }
        }
        return false;
    }
}
