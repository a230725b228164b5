package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.DatasetChunk;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.KeptFixtures;
import dev.tensorbroadcast.arrowio.source.SourceSlice;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Arrow IPC streams as pa.ipc.new_stream writes them (fixtures/kept-columns: stream/ with pyarrow's defaults,
 * stream-zstd/ and stream-lz4/ with compressed bodies) as dataset files: indexed from their message headers, read in
 * slices by offset.
 */
class ArrowStreamSourceTest {
    private static final Configuration CONF = new Configuration();

    @ParameterizedTest
    @ValueSource(strings = {"stream", "stream-zstd", "stream-lz4"})
    void aStreamIsIndexedByItsHeadersAndItsBatchesFoundByOffset(String format) throws Exception {
        TensorDataset dataset = KeptFixtures.open(format, CONF);

        assertThat(dataset.shape()).isEqualTo(Shape.of(600, 1, 8));
        assertThat(dataset.dtype()).isEqualTo(DType.FLOAT32);
        assertThat(dataset.parts()).hasSize(2);
        for (DatasetPart part : dataset.parts()) {
            assertThat(part.chunks()).extracting(DatasetChunk::rows).containsExactly(100L, 100L, 100L);
            // each batch starts where the one before it ends, after the schema message
            List<DatasetChunk> chunks = part.chunks();
            assertThat(chunks.get(0).offset()).isGreaterThan(0);
            for (int i = 1; i < chunks.size(); i++) {
                assertThat(chunks.get(i).offset())
                        .isEqualTo(
                                chunks.get(i - 1).offset() + chunks.get(i - 1).bytes());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"stream", "stream-zstd", "stream-lz4"})
    void slicesHoldTheValuesPyarrowWasGiven(String format) throws Exception {
        TensorDataset dataset = KeptFixtures.open(format, CONF);

        for (SourceRows rows : List.of(
                new SourceRows(0, 600), new SourceRows(150, 450), new SourceRows(299, 301), new SourceRows(599, 600))) {
            SourceSlice slice = DatasetSlices.read(dataset, rows, CONF);
            ByteBuffer values = ByteBuffer.wrap(slice.tensor().values()).order(ByteOrder.LITTLE_ENDIAN);
            assertThat(slice.tensor().shape()).isEqualTo(Shape.of(rows.count(), 1, 8));
            for (int i = 0; i < rows.count(); i++) {
                for (int e = 0; e < 8; e++) {
                    // make_fixtures.py: row r holds r + e / 8
                    assertThat(values.getFloat((i * 8 + e) * 4))
                            .as("row %s value %s", rows.first() + i, e)
                            .isEqualTo((float) (rows.first() + i + e / 8.0));
                }
            }
        }
    }

    @Test
    void aSliceReadsOnlyTheBatchesThatHoldItsRows() throws Exception {
        TensorDataset dataset = KeptFixtures.open("stream", CONF);
        DatasetPart second = dataset.parts().get(1);

        SourceSlice slice = DatasetSlices.read(dataset, new SourceRows(420, 430), CONF);

        // batch 1 of the second file, and the headers before it (the file system reads them in 4 KiB buffers);
        // never a second body
        long batch = second.chunks().get(1).bytes();
        assertThat(slice.bytesRead())
                .isGreaterThanOrEqualTo(batch)
                .isLessThan(batch + second.chunks().get(0).bytes());
    }

    @Test
    void planningReadsTheHeadersNotTheBodies(@TempDir Path directory) throws Exception {
        // one stream of 64 batches of 4096 rows of 64 floats: 64 MiB of bodies
        Path file = directory.resolve("big.arrow");
        Files.write(file, StreamFixtures.listStream(64, 4096, 64));
        FileSystem local = FileSystem.getLocal(CONF);
        long before = bytesRead();

        TensorDataset dataset = TensorDatasets.open(
                local,
                new org.apache.hadoop.fs.Path(directory.toUri()),
                directory.toString(),
                DatasetOptions.defaults().withRowShape(Shape.of(1, 64)));

        assertThat(dataset.rows()).isEqualTo(64 * 4096);
        // a header, and the first row's offsets, per batch of 1 MiB (the file system reads in 4 KiB buffers)
        assertThat(bytesRead() - before).as("bytes read to plan").isLessThan(Files.size(file) / 100);
        SourceSlice last = DatasetSlices.read(dataset, new SourceRows(64 * 4096 - 1, 64 * 4096), CONF);
        assertThat(ByteBuffer.wrap(last.tensor().values())
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getFloat(63 * 4))
                .isEqualTo((float) (64 * 4096 - 1) + 63);
    }

    @Test
    void aTruncatedStreamIsNamedWithTheMessageThatDoesNotFit(@TempDir Path directory) throws Exception {
        byte[] whole = StreamFixtures.listStream(2, 10, 4);
        Path file = directory.resolve("cut.arrow");
        Files.write(file, java.util.Arrays.copyOf(whole, whole.length - 50));
        FileSystem local = FileSystem.getLocal(CONF);

        assertThatThrownBy(() -> TensorDatasets.open(
                        local,
                        new org.apache.hadoop.fs.Path(directory.toUri()),
                        directory.toString(),
                        DatasetOptions.defaults().withRowShape(Shape.of(4))))
                .isInstanceOf(SourceFormatException.class)
                .hasMessageStartingWith("Cannot read " + new org.apache.hadoop.fs.Path(file.toUri()))
                .hasMessageContaining("declares a ")
                .hasMessageContaining("-byte body but ");
    }

    private static long bytesRead() {
        long bytes = 0;
        for (FileSystem.Statistics statistics : FileSystem.getAllStatistics()) {
            bytes += statistics.getBytesRead();
        }
        return bytes;
    }
}
