package dev.tensorbroadcast.job.dataset;

import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.job.base.DatasetException;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.planner.DType;
import java.io.IOException;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/** Opens a dataset's files for reading in the format its manifest names, through that format's entry. */
final class DatasetFiles {
    private DatasetFiles() {}

    static DType dtype(Manifest manifest) {
        return DType.parse(manifest.dtype());
    }

    /**
     * Opens {@code file}, whose size the caller has checked to be {@code file.bytes()}, for reading batches that
     * hold exactly its listed rows.
     */
    static DatasetFileReader open(DatasetDirectory dir, Manifest manifest, DatasetFile file, BufferAllocator allocator)
            throws IOException {
        return new ListedRows(openFormat(dir, manifest, file, allocator), file);
    }

    private static DatasetFileReader openFormat(
            DatasetDirectory dir, Manifest manifest, DatasetFile file, BufferAllocator allocator) throws IOException {
        Optional<DatasetFileFormat> format = TensorFileFormats.datasetFormat(manifest.format())
                .filter(found -> found.name().equals(manifest.format()));
        if (format.isEmpty()) {
            throw new DatasetException("Cannot read " + dir.name() + ": its manifest names format '"
                    + manifest.format() + "'; this tool reads "
                    + String.join(
                            ", ",
                            TensorFileFormats.datasetFormats().stream()
                                    .map(DatasetFileFormat::name)
                                    .toList()));
        }
        return format.get()
                .openBatches(
                        dir.fileSystem(),
                        dir.resolve(file.path()),
                        file.bytes(),
                        allocator,
                        dtype(manifest),
                        ManifestShapes.shape(manifest.rowShape()),
                        RowLayout.named(manifest.rowLayout()).orElseThrow());
    }
}
