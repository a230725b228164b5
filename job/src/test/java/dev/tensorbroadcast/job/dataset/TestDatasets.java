package dev.tensorbroadcast.job.dataset;

import dev.tensorbroadcast.arrowio.RandomTensors;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowTensorFileWriter;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetTensorFileWriter;
import dev.tensorbroadcast.job.base.Crc32c;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.manifest.SourceRead;
import dev.tensorbroadcast.job.sink.NpyWriter;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;
import org.apache.parquet.io.LocalOutputFile;

/**
 * Real datasets for tests, without Spark: the arrow-io writers write each partition of a numpy broadcast, and the
 * manifest is built as the job builds it, then {@code _SUCCESS}.
 */
public final class TestDatasets {

    private TestDatasets() {}

    /** Writes the numpy broadcast of {@code source} to {@code target} as a complete dataset. */
    public static Manifest write(Path dir, SourceTensor source, long[] target, String format, int partitions)
            throws IOException {
        Files.createDirectories(dir);
        String shapeText = Arrays.toString(target).replace(" ", "");
        BroadcastRequest request = BroadcastRequest.builder(Dialect.NUMPY)
                .input(source.shape(), source.dtype())
                .target(TargetShape.of(target))
                .build();
        BroadcastPlan plan = request.plan();
        PartitionPlan partitioning =
                PartitionPlan.builderFor(plan).partitions(partitions).build();
        TensorKernel kernel = TensorKernel.of(source, plan.copyProgram(0));
        List<DatasetFile> files = new ArrayList<>();
        for (long index = 0; index < partitioning.partitionCount(); index++) {
            Partition partition = partitioning.partition(index);
            String name = String.format("part-%05d.%s", index, format);
            Path file = dir.resolve(name);
            if (format.equals("arrow")) {
                try (OutputStream out = Files.newOutputStream(file)) {
                    ArrowTensorFileWriter.create()
                            .withBatchBytes(40)
                            .write(kernel, partitioning.rowShape(), partition, out);
                }
            } else {
                ParquetTensorFileWriter.create()
                        .withBatchBytes(40)
                        .write(kernel, partitioning.rowShape(), partition, new LocalOutputFile(file));
            }
            files.add(new DatasetFile(
                    name,
                    index,
                    partition.firstRow(),
                    partition.rowCount(),
                    Files.size(file),
                    crc32c(Files.readAllBytes(file)),
                    "driver",
                    "localhost",
                    new SourceRead(
                            0, source.shape().rank() == 0 ? 1 : source.shape().dim(0), 0)));
        }
        Manifest manifest = new Manifest(
                Manifest.FORMAT_VERSION,
                "test",
                "2025-01-01T00:00:00Z",
                Map.of("dialect", "numpy", "shape", shapeText),
                List.of(new Manifest.ManifestInput(
                        "source.npy",
                        ManifestShapes.list(source.shape()),
                        source.dtype().typeName())),
                ManifestShapes.list(plan.output()),
                source.dtype().typeName(),
                partitioning.elements(),
                partitioning.bytes(),
                partitioning.rowDims(),
                ManifestShapes.list(partitioning.rowShape()),
                partitioning.rows(),
                format,
                "none",
                partitioning.partitionCount(),
                files);
        writeManifest(dir, manifest);
        Files.write(dir.resolve(Manifest.SUCCESS_FILE_NAME), new byte[0]);
        return manifest;
    }

    public static void writeManifest(Path dir, Manifest manifest) throws IOException {
        Files.write(dir.resolve(Manifest.FILE_NAME), ManifestJson.toBytes(manifest));
    }

    /** The manifest with one file's size and checksum replaced by what the file now holds. */
    public static Manifest rechecksum(Path dir, Manifest manifest, String name) throws IOException {
        List<DatasetFile> files = new ArrayList<>();
        for (DatasetFile file : manifest.files()) {
            if (file.path().equals(name)) {
                byte[] bytes = Files.readAllBytes(dir.resolve(name));
                file = new DatasetFile(
                        name,
                        file.partition(),
                        file.firstRow(),
                        file.rows(),
                        bytes.length,
                        crc32c(bytes),
                        file.executorId(),
                        file.host(),
                        file.sourceRead());
            }
            files.add(file);
        }
        return new Manifest(
                manifest.formatVersion(),
                manifest.toolVersion(),
                manifest.created(),
                manifest.request(),
                manifest.inputs(),
                manifest.shape(),
                manifest.dtype(),
                manifest.elements(),
                manifest.bytes(),
                manifest.rowDims(),
                manifest.rowShape(),
                manifest.rows(),
                manifest.format(),
                manifest.compression(),
                manifest.partitions(),
                files,
                manifest.keptColumns(),
                manifest.rowLayout());
    }

    /** The manifest's checksum of {@code bytes}. */
    public static String crc32c(byte[] bytes) {
        CRC32C crc = new CRC32C();
        crc.update(bytes);
        return Crc32c.hex(crc.getValue());
    }

    /** float32 values {@code first + i}. */
    public static SourceTensor floats(Shape shape, float first) {
        ByteBuffer bytes = ByteBuffer.allocate((int) shape.elements() * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < shape.elements(); i++) {
            bytes.putFloat(i * 4, first + i);
        }
        return SourceTensor.fixedWidth(DType.FLOAT32, shape, bytes.array(), null);
    }

    /** Seeded random values of any dtype; with {@code nulls}, about one element in four is null. */
    public static SourceTensor random(DType dtype, Shape shape, long seed, boolean nulls) {
        int elements = (int) shape.elements();
        byte[] validity = null;
        if (nulls) {
            // a fixed pattern, so tests can count the nulls: every fourth element from the second on
            validity = new byte[(elements + 7) / 8];
            for (int i = 0; i < elements; i++) {
                if (i % 4 != 1) {
                    validity[i >>> 3] |= (byte) (1 << (i & 7));
                }
            }
        }
        return RandomTensors.source(new Random(seed), dtype, shape, validity);
    }

    /** Writes a source as a {@code .npy} the way numpy would, for {@code --source}. */
    public static Path writeNpy(Path file, SourceTensor source) throws IOException {
        if (source.dtype() == DType.STRING || source.dtype() == DType.BOOL || source.hasNulls()) {
            throw new IllegalArgumentException("only fixed-width byte types without nulls");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(NpyWriter.header(NpyExporter.descr(source.dtype()), source.shape()));
        out.writeBytes(source.values());
        Files.write(file, out.toByteArray());
        return file;
    }

    /**
     * Writes a source as an Arrow IPC file (the identity broadcast, one partition, rows along the first dim), which
     * the Arrow source reader reads back with its nulls, strings and bools.
     */
    public static Path writeArrowSource(Path file, SourceTensor source) throws IOException {
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.NUMPY)
                .input(source.shape(), source.dtype())
                .target(TargetShape.of(source.shape()))
                .build()
                .plan();
        PartitionPlan partitioning =
                PartitionPlan.builderFor(plan).partitions(1).build();
        try (OutputStream out = Files.newOutputStream(file)) {
            ArrowTensorFileWriter.create()
                    .write(
                            TensorKernel.of(source, plan.copyProgram(0)),
                            partitioning.rowShape(),
                            partitioning.partition(0),
                            out);
        }
        return file;
    }
}
