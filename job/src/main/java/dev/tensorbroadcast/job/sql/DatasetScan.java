package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The scan of a dataset of ours: one input partition per part file (or chunk row of an array), cut to the rows the
 * filters on {@code index} leave; parts without any are not read. Filters on the kept columns of a Parquet dataset
 * leave out the row groups whose statistics exclude them ({@link RowGroupPruning}): a part's other runs of row groups
 * are an input partition each.
 */
final class DatasetScan implements SupportsReportStatistics, Batch {
    /** The manifest's name of a dataset of Parquet files, whose row groups carry statistics. */
    private static final String PARQUET = "parquet";

    private final DatasetRead read;
    private final IndexRange wanted;
    private final List<Filter> keptFilters;
    /** The rows to read, worked out once: the optimizer and the planner both ask. */
    private List<DatasetRead.RowRange> rows;

    private int skippedRowGroups;

    DatasetScan(DatasetRead read, IndexRange wanted, List<Filter> keptFilters) {
        this.read = requireNonNull(read, "read is null");
        this.wanted = requireNonNull(wanted, "wanted is null");
        this.keptFilters = List.copyOf(keptFilters);
    }

    @Override
    public StructType readSchema() {
        return read.schema();
    }

    @Override
    public String description() {
        return "tensorbroadcast dataset " + read.location() + ": "
                + read.shape().toList() + " "
                + read.manifest().dtype() + " " + read.manifest().format() + " ("
                + read.parts().size() + " parts)"
                + (wanted.equals(IndexRange.ALL) ? "" : ", index in [" + wanted.first() + ", " + wanted.end() + ")")
                + (keptFilters.isEmpty()
                        ? ""
                        : ", " + rows().size() + " runs of row groups, " + skippedRowGroups + " row groups skipped");
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    /** The parts' rows that are wanted, each an input partition. */
    synchronized List<DatasetRead.RowRange> rows() {
        if (rows != null) {
            return rows;
        }
        RowGroupPruning pruning = keptFilters.isEmpty()
                        || !read.manifest().format().equals(PARQUET)
                ? null
                : new RowGroupPruning(
                        read.stored(),
                        keptFilters,
                        read.kept().stream().map(column -> column.name()).toList(),
                        SparkSession.active().sparkContext().hadoopConfiguration());
        List<DatasetRead.RowRange> wantedRows = new ArrayList<>();
        for (DatasetRead.RowRange part : read.parts()) {
            IndexRange kept = wanted.intersect(new IndexRange(part.first(), part.end()));
            if (kept.isEmpty()) {
                continue;
            }
            if (pruning == null) {
                wantedRows.add(new DatasetRead.RowRange(kept.first(), kept.end()));
            } else {
                wantedRows.addAll(pruning.keep(kept.first(), kept.end()));
            }
        }
        skippedRowGroups = pruning == null ? 0 : pruning.skipped();
        rows = List.copyOf(wantedRows);
        return rows;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        return rows().stream()
                .map(rows -> new DatasetPartition(rows.first(), rows.end()))
                .toArray(InputPartition[]::new);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        SparkSession spark = SparkSession.active();
        JavaSparkContext java = JavaSparkContext.fromSparkContext(spark.sparkContext());
        return new DatasetReaders(
                read.stored(),
                read.whole(),
                read.shape(),
                read.rowShape(),
                read.kept(),
                java.broadcast(
                        new SerializableConfiguration(spark.sparkContext().hadoopConfiguration())),
                BatchReaders.BATCH_BYTES);
    }

    @Override
    public Statistics estimateStatistics() {
        long rows = rows().stream().mapToLong(DatasetRead.RowRange::count).sum();
        long rowBytes = read.manifest().rows() == 0
                ? 0
                : read.manifest().bytes() / read.manifest().rows();
        // each row's values (the manifest's bytes are the tensor's), 8-byte index and kept columns, estimated from
        // their types (KeptSparkTypes.rowBytes)
        long bytes = rows * (rowBytes + 8 + KeptSparkTypes.rowBytes(read.kept()));
        return new Statistics() {
            @Override
            public OptionalLong sizeInBytes() {
                return OptionalLong.of(bytes);
            }

            @Override
            public OptionalLong numRows() {
                return OptionalLong.of(rows);
            }
        };
    }

    /** Manifest rows {@code [first, end)}, all in one part. */
    record DatasetPartition(long first, long end) implements InputPartition {}
}
