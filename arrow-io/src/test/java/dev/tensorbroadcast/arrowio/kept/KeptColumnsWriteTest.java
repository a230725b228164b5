package dev.tensorbroadcast.arrowio.kept;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowTensorFileWriter;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetTensorFileWriter;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.arrowio.source.KeptFixtures;
import dev.tensorbroadcast.arrowio.source.SourceSlice;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.BroadcastRequest;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.RowLineage;
import dev.tensorbroadcast.planner.SourceRows;
import dev.tensorbroadcast.planner.TargetShape;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A pyarrow feature table expanded {@code [1,8] -> [3,8]} per row, written with its other columns by both writers and
 * read back: every kept column has its name, its type and, row for row, the value of the source row.
 */
class KeptColumnsWriteTest {
    private static final Configuration CONF = new Configuration();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} source to {1}")
    @CsvSource({"parquet, parquet", "parquet, arrow", "arrow, parquet", "arrow, arrow"})
    void everyOutputRowCarriesItsSourceRowsColumns(String source, String output) throws Exception {
        TensorDataset dataset = KeptFixtures.open(source, CONF);
        List<KeptColumn> columns = dataset.others().stream()
                .map(OtherColumn::kept)
                .filter(c -> c != null)
                .toList();
        BroadcastPlan plan = BroadcastRequest.builder(Dialect.PYTORCH)
                .input(dataset.shape())
                .target(TargetShape.parse("-1,3,8"))
                .build()
                .plan();
        PartitionPlan partitions = PartitionPlan.builderFor(plan).partitions(4).build();
        Partition partition = partitions.partition(0);
        RowLineage lineage = RowLineage.of(plan, 0, partitions).orElseThrow();
        SourceRows rows = plan.sourceRows(0, partition);
        SourceSlice slice = DatasetSlices.read(dataset, rows, CONF);
        TensorKernel kernel = TensorKernel.ofSlice(
                slice.tensor(), plan.copyProgram(0), 0, partition.firstElement(), partition.endElement());
        Path written = Files.createDirectories(dir.resolve("out")).resolve("part-0." + output);
        try (KeptRows kept =
                KeptReader.read(dataset, lineage.sourceRows(partition.firstRow(), partition.endRow()), columns, CONF)) {
            Optional<KeptOutput> keptOutput = Optional.of(new KeptOutput(kept, lineage));
            if (output.equals("arrow")) {
                try (OutputStream out = Files.newOutputStream(written)) {
                    ArrowTensorFileWriter.create()
                            .withBatchBytes(1000)
                            .write(
                                    kernel,
                                    partitions.rowShape(),
                                    partition,
                                    keptOutput,
                                    java.nio.channels.Channels.newChannel(out));
                }
            } else {
                ParquetTensorFileWriter.create()
                        .withBatchBytes(1000)
                        .write(
                                kernel,
                                partitions.rowShape(),
                                partition,
                                keptOutput,
                                HadoopOutputFile.fromPath(hadoop(written), CONF));
            }
        }

        TensorDataset back = TensorDatasets.open(
                FileSystem.getLocal(CONF),
                hadoop(written.getParent()),
                written.getParent().toString(),
                DatasetOptions.defaults().withColumn("tensor"));
        assertThat(back.shape()).isEqualTo(dev.tensorbroadcast.planner.Shape.of(150, 3, 8));
        assertThat(back.others()).extracting(OtherColumn::kept).containsExactlyElementsOf(columns);
        try (KeptRows read = KeptReader.read(back, new SourceRows(0, 150), columns, CONF)) {
            for (int c = 0; c < columns.size(); c++) {
                String name = columns.get(c).name();
                for (int row = 0; row < 150; row++) {
                    assertThat(KeptFixtures.actual(read.vector(c), row))
                            .as("%s row %s", name, row)
                            .isEqualTo(KeptFixtures.expected(name, row));
                }
            }
        }
        if (output.equals("parquet")) {
            assertKeptStatistics(written);
        }
    }

    /** Each row group's footer gives the kept columns' minimum, maximum and nulls, which readers prune by. */
    private static void assertKeptStatistics(Path written) throws Exception {
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(hadoop(written), CONF))) {
            assertThat(reader.getRowGroups()).hasSizeGreaterThan(1);
            long firstRow = 0;
            for (var group : reader.getRowGroups()) {
                long endRow = firstRow + group.getRowCount();
                ColumnChunkMetaData userId = chunk(group.getColumns(), "user_id");
                Statistics<?> statistics = userId.getStatistics();
                assertThat(statistics.genericGetMin()).isEqualTo(firstRow);
                assertThat(statistics.genericGetMax()).isEqualTo(endRow - 1);
                long nameNulls = java.util.stream.LongStream.range(firstRow, endRow)
                        .filter(r -> r % 7 == 0)
                        .count();
                assertThat(chunk(group.getColumns(), "name").getStatistics().getNumNulls())
                        .isEqualTo(nameNulls);
                firstRow = endRow;
            }
        }
    }

    private static ColumnChunkMetaData chunk(List<ColumnChunkMetaData> columns, String name) {
        return columns.stream()
                .filter(column -> column.getPath().toDotString().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static org.apache.hadoop.fs.Path hadoop(Path path) {
        return new org.apache.hadoop.fs.Path(path.toUri());
    }
}
