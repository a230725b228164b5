package dev.tensorbroadcast.job.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;

/** Reads a written dataset back with independent code: the manifest, the checksums, and Arrow Java's file reader. */
public final class DatasetFiles {
    private DatasetFiles() {}

    public static Manifest manifest(Path dataset) throws IOException {
        try (InputStream in = Files.newInputStream(dataset.resolve(Manifest.FILE_NAME))) {
            return ManifestJson.read(in, Manifest.FILE_NAME);
        }
    }

    /** The file names in the directory, sorted. */
    public static List<String> names(Path dataset) throws IOException {
        try (Stream<Path> files = Files.list(dataset)) {
            return files.map(file -> file.getFileName().toString()).sorted().toList();
        }
    }

    /** Checks the manifest's sizes and checksums against the files. */
    public static void checkFiles(Path dataset, Manifest manifest) throws IOException {
        for (DatasetFile file : manifest.files()) {
            byte[] bytes = Files.readAllBytes(dataset.resolve(file.path()));
            CRC32C crc = new CRC32C();
            crc.update(bytes);
            assertThat(bytes.length).as(file.path()).isEqualTo(file.bytes());
            assertThat(String.format(Locale.ROOT, "%08x", crc.getValue()))
                    .as(file.path())
                    .isEqualTo(file.crc32c());
        }
    }

    /** One row of an Arrow file: its index and its values as Java objects. */
    public record ArrowRow(long index, List<Object> values) {}

    /** Every row of every Arrow IPC file of the dataset, in manifest order. */
    public static List<ArrowRow> arrowRows(Path dataset, Manifest manifest) throws IOException {
        List<ArrowRow> rows = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            for (DatasetFile file : manifest.files()) {
                try (var channel = Files.newByteChannel(dataset.resolve(file.path()));
                        ArrowReader reader =
                                new ArrowFileReader(channel, allocator, CommonsCompressionFactory.INSTANCE)) {
                    while (reader.loadNextBatch()) {
                        VectorSchemaRoot root = reader.getVectorSchemaRoot();
                        BigIntVector index = (BigIntVector) root.getVector("index");
                        FieldVector tensor = root.getVector("tensor");
                        // Arrow Java gives the extension vector once the tensor type is registered in this JVM
                        FixedSizeListVector list = (FixedSizeListVector)
                                (tensor instanceof ExtensionTypeVector<?> e ? e.getUnderlyingVector() : tensor);
                        for (int r = 0; r < root.getRowCount(); r++) {
                            List<?> values = list.getObject(r);
                            rows.add(new ArrowRow(index.get(r), new ArrayList<>(values)));
                        }
                    }
                }
            }
        }
        return rows;
    }
}
