package dev.tensorbroadcast.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.OutputCompression;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TargetShape;
import org.junit.jupiter.api.Test;

/** The Java API's two builders take the write request alike: the same refusals, in the API's words. */
class WriteRequestTest {
    private static final String BOTH = "Cannot use a partition size with a partition count: they are mutually"
            + " exclusive (give a size per partition or a partition count)";

    @Test
    void bothBuildersRefuseAPartitionSizeWithACount() {
        assertThatThrownBy(() -> TensorBroadcast.builder()
                        .source("/tmp/in.npy")
                        .dialect(Dialect.NUMPY)
                        .partitionBytes(1 << 20)
                        .partitions(4)
                        .build())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage(BOTH);
        assertThatThrownBy(() -> reduce().partitionBytes(1 << 20).partitions(4).build())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage(BOTH);
        assertThatThrownBy(() -> reduce().partitions(4).partitionBytes(1 << 20).build())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage(BOTH);
    }

    @Test
    void theLevelIsOnlyZstdsAndCheckedOnce() {
        assertThat(Compression.parse("zstd:9")).isEqualTo(new Compression(OutputCompression.ZSTD, 9));
        assertThat(Compression.parse("lz4")).isEqualTo(Compression.of(OutputCompression.LZ4));
        assertThat(Compression.parse("zstd:9").toString()).isEqualTo("zstd:9");
        assertThatThrownBy(() ->
                        WriteSpec.builder().compression(OutputCompression.LZ4).compressionLevel(3))
                .hasMessage("Cannot use compression 'lz4:3': lz4 takes no level; expected none, lz4, zstd, zstd:1 to"
                        + " zstd:22, gzip or gzip:1 to gzip:9");
        assertThatThrownBy(() -> Compression.parse("zstd:23"))
                .hasMessage("Cannot use compression 'zstd:23': zstd"
                        + " levels go from 1 (fastest) to 22 (smallest); expected none, lz4, zstd, zstd:1 to zstd:22, gzip or"
                        + " gzip:1 to gzip:9");
        assertThatThrownBy(() -> Compression.parse("zstd:high"))
                .hasMessage(
                        "Cannot use compression 'zstd:high':"
                                + " 'high' is not a level; expected none, lz4, zstd, zstd:1 to zstd:22, gzip or gzip:1 to gzip:9");
        assertThat(Compression.parse("gzip:9")).isEqualTo(new Compression(OutputCompression.GZIP, 9));
        assertThatThrownBy(() -> Compression.parse("gzip:10"))
                .hasMessage("Cannot use compression 'gzip:10': gzip"
                        + " levels go from 1 (fastest) to 9 (smallest); expected none, lz4, zstd, zstd:1 to zstd:22, gzip or"
                        + " gzip:1 to gzip:9");
    }

    @Test
    void parquetOnlyOptionsAreRefusedForOtherFormatsWhenBuilt() {
        assertThatThrownBy(() -> WriteSpec.builder()
                        .byteStreamSplit(true)
                        .format(OutputFormat.ARROW)
                        .build())
                .hasMessage("Cannot use byteStreamSplit(true) with format arrow: it is a Parquet encoding; add"
                        + " format(OutputFormat.PARQUET)");
        assertThatThrownBy(() ->
                        WriteSpec.builder().rowLayout(RowLayout.NESTED).npy().build())
                .hasMessage("Cannot use rowLayout(RowLayout.NESTED) with format npy: it writes one array; nested rows"
                        + " are for Parquet readers (Spark, DuckDB, polars); add format(OutputFormat.PARQUET)");
        assertThat(WriteSpec.builder()
                        .rowLayout(RowLayout.NESTED)
                        .byteStreamSplit(true)
                        .format(OutputFormat.PARQUET)
                        .build()
                        .files()
                        .settings()
                        .rowLayout())
                .isEqualTo(RowLayout.NESTED);
        // the broadcast's default format is arrow: refused when built, not later
        assertThatThrownBy(() -> TensorBroadcast.builder()
                        .source("/tmp/in.npy")
                        .dialect(Dialect.NUMPY)
                        .rowLayout(RowLayout.NESTED)
                        .build())
                .hasMessageStartingWith("Cannot use rowLayout(RowLayout.NESTED) with format arrow: ");
    }

    @Test
    void theRowGroupSizeIsCheckedWhenBuiltWhicheverBuilderTakesIt() {
        String refused = "Cannot use row group size 1024 bytes: expected 1m to 1g (each task holds one group's"
                + " buffers; the default is 32m)";
        assertThatThrownBy(() -> WriteSpec.builder().rowGroupBytes(1024).build())
                .hasMessage(refused);
        assertThatThrownBy(() -> reduce().output("/tmp/out").rowGroupBytes(1024).build())
                .hasMessage(refused);
        assertThatThrownBy(() -> TensorBroadcast.builder()
                        .source("/tmp/in.npy")
                        .dialect(Dialect.NUMPY)
                        .rowGroupBytes(1024)
                        .build())
                .hasMessage(refused);
    }

    @Test
    void aNpyTakesNoDatasetFileOptionsInEitherForm() {
        String refused = "Cannot use compression(zstd:5) with format npy: a .npy file is written uncompressed; drop"
                + " compression, or write a dataset directory with format(ARROW or PARQUET)";
        assertThatThrownBy(() -> WriteSpec.builder()
                        .npy()
                        .compression(Compression.parse("zstd:5"))
                        .build())
                .hasMessage(refused);
        // a reduce into a path ending in .npy is a .npy unless a format says otherwise
        assertThatThrownBy(() -> reduce().compression(OutputCompression.ZSTD)
                        .compressionLevel(5)
                        .build())
                .hasMessage(refused);
        assertThatThrownBy(() -> reduce().rowGroupBytes(1 << 20).build())
                .hasMessageStartingWith("Cannot use rowGroupBytes with format npy: ");
    }

    @Test
    void theFormatRefusesWhatItCannotHonourWhicheverRequestTakesIt() {
        // a Zarr array has chunks, not row groups: refused by the format, for a reduce as for a broadcast
        String refused = "Cannot use rowGroupBytes with format zarr: an array is cut into chunks, not row groups;"
                + " give chunks instead";
        assertThatThrownBy(() -> reduce().output("/tmp/out")
                        .format("zarr")
                        .rowGroupBytes(2 << 20)
                        .build())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage(refused);
        assertThatThrownBy(() -> TensorBroadcast.builder()
                        .source("/tmp/in.npy")
                        .dialect(Dialect.NUMPY)
                        .format(OutputFormat.parse("zarr"))
                        .rowGroupBytes(2 << 20)
                        .build())
                .hasMessage(refused);
        // npy is a registered format like the others: by name, as a value, or chosen by the output's name
        assertThat(reduce().format(OutputFormat.NPY).build().write())
                .isEqualTo(reduce().build().write());
        assertThat(OutputFormat.results()).extracting(OutputFormat::formatName).startsWith("npy", "arrow", "parquet");
        assertThatThrownBy(() -> OutputFormat.parse("npy"))
                .hasMessage("Cannot use format 'npy': expected arrow," + " parquet or zarr");
    }

    @Test
    void bothBuildersTakeOneWriteSpec() {
        WriteSpec spec = WriteSpec.builder()
                .format(OutputFormat.PARQUET)
                .compression(Compression.parse("zstd:7"))
                .rowGroupBytes(2 << 20)
                .byteStreamSplit(true)
                .rowLayout(RowLayout.NESTED)
                .maxOutputBytes(1 << 30)
                .checkFreeSpace(false)
                .overwrite(true)
                .build();
        TensorBroadcast broadcast = TensorBroadcast.builder()
                .source("/tmp/in.npy")
                .dialect(Dialect.NUMPY)
                .write(spec)
                .build();
        assertThat(broadcast.write()).isEqualTo(spec);
        assertThat(broadcast.files().codecName()).isEqualTo("zstd:7");
        TensorReduce reduce = TensorReduce.builder()
                .gradient("/tmp/grad.npy")
                .dialect(Dialect.NUMPY)
                .inputShape(Shape.of(1, 4))
                .shape(TargetShape.parse("[8,4]"))
                .output("/tmp/out")
                .write(spec)
                .build();
        assertThat(reduce.write()).isEqualTo(spec);
        assertThat(reduce.write().format()).contains(OutputFormat.PARQUET);
        // without a format, each request chooses: arrow for a broadcast, by the output's name for a reduce
        WriteSpec plain = WriteSpec.builder().build();
        assertThat(TensorBroadcast.builder()
                        .source("/tmp/in.npy")
                        .dialect(Dialect.NUMPY)
                        .write(plain)
                        .build()
                        .write()
                        .format())
                .contains(OutputFormat.ARROW);
        assertThat(reduce().write(plain).build().write().npy()).isTrue();
        // the format setters fill the same WriteSpec: by name (npy or a dataset format) or as a value
        assertThat(reduce().format("npy").build().write().npy()).isTrue();
        assertThat(reduce().output("/tmp/out").format("parquet").build().write().format())
                .contains(OutputFormat.PARQUET);
        assertThatThrownBy(() -> reduce().format("csv"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot use format 'csv': expected npy, arrow, parquet or zarr");
        // a reduce's result may be a Zarr array too, by name and as a value
        assertThat(reduce().output("/tmp/out").format("zarr").build().files().array())
                .isPresent();
        assertThat(reduce().output("/tmp/out")
                        .format(OutputFormat.parse("zarr"))
                        .build()
                        .formatName())
                .isEqualTo("zarr");
        // a Zarr array goes to s3a:// too, a reduce's result as expand's (S3StorageIT writes one)
        assertThat(reduce().output("s3a://bucket/out")
                        .format("zarr")
                        .build()
                        .files()
                        .array())
                .isPresent();
        assertThat(TensorBroadcast.builder()
                        .source("/tmp/in.npy")
                        .dialect(Dialect.NUMPY)
                        .output("s3a://bucket/out")
                        .format(OutputFormat.parse("zarr"))
                        .build()
                        .files()
                        .array())
                .isPresent();
        assertThat(TensorBroadcast.builder()
                        .source("/tmp/in.npy")
                        .dialect(Dialect.NUMPY)
                        .output("/tmp/out")
                        .format(OutputFormat.parse("zarr"))
                        .build()
                        .files()
                        .array())
                .isPresent();
        // a broadcast writes datasets only
        assertThatThrownBy(() -> TensorBroadcast.builder()
                        .source("/tmp/in.npy")
                        .dialect(Dialect.NUMPY)
                        .write(WriteSpec.builder().npy().build())
                        .build())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot write a broadcast as one .npy: it writes a dataset; give"
                        + " format(OutputFormat.ARROW or PARQUET)");
    }

    private static TensorReduce.Builder reduce() {
        return TensorReduce.builder()
                .gradient("/tmp/grad.npy")
                .dialect(Dialect.NUMPY)
                .inputShape(Shape.of(1, 4))
                .shape(TargetShape.parse("[8,4]"))
                .output("/tmp/out.npy");
    }
}
