package dev.tensorbroadcast.job.dataset;

import dev.tensorbroadcast.arrowio.parquet.RowLayout;
import dev.tensorbroadcast.arrowio.source.HadoopChannel;
import dev.tensorbroadcast.job.base.DatasetException;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.planner.DType;
import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.hadoop.fs.Path;

/** Opens a dataset's files for reading in the format its manifest names. */
final class DatasetFiles {
    static final String ARROW = "arrow";
    static final String PARQUET = "parquet";

    private DatasetFiles() {}

    static DType dtype(Manifest manifest) {
        return DType.parse(manifest.dtype());
    }

    /**
     * Opens {@code file}, whose size the caller has checked to be {@code file.bytes()}, for reading batches that
     * hold exactly its listed rows.
     */
    static DatasetFileReader open(DatasetDirectory dir, Manifest manifest, DatasetFile file,
            BufferAllocator allocator) throws IOException {
        return new ListedRows(openFormat(dir, manifest, file, allocator), file);
    }

    private static DatasetFileReader openFormat(DatasetDirectory dir, Manifest manifest, DatasetFile file,
            BufferAllocator allocator) throws IOException {
        Path path = dir.resolve(file.path());
        long length = file.bytes();
        return switch (manifest.format()) {
            case ARROW -> new ArrowFileBatches(new HadoopChannel(dir.fileSystem().open(path), length), allocator,
                    dtype(manifest), ManifestShapes.shape(manifest.rowShape()));
            case PARQUET -> new ParquetFileBatches(dir.fileSystem(), path, length, allocator, dtype(manifest),
                    ManifestShapes.shape(manifest.rowShape()), RowLayout.named(manifest.rowLayout()).orElseThrow());
            default -> throw new DatasetException("Cannot read " + dir.name() + ": its manifest names format '"
                    + manifest.format() + "'; this tool reads " + ARROW + " and " + PARQUET);
        };
    }
}
