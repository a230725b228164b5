package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.job.base.DatasetException;
import dev.tensorbroadcast.job.base.Reasons;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.compat.RowGroupFilter;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.sources.Filter;

/**
 * The rows of a Parquet dataset's files that filters on kept columns may keep: each file's footer is read on the
 * driver and its row groups whose statistics exclude the filters ({@link KeptFilters}) are left out, so that no task
 * reads them. Spark still applies the filters to the rows read.
 */
final class RowGroupPruning {
    private final TensorDataset stored;
    private final List<Filter> filters;
    private final List<String> kept;
    private final Configuration conf;
    private int skipped;

    RowGroupPruning(TensorDataset stored, List<Filter> filters, List<String> kept, Configuration conf) {
        this.stored = requireNonNull(stored, "stored is null");
        this.filters = List.copyOf(filters);
        this.kept = List.copyOf(kept);
        this.conf = requireNonNull(conf, "conf is null");
    }

    /** Of dataset rows {@code [first, end)}, the runs of row groups the filters may keep rows of, in order. */
    List<DatasetRead.RowRange> keep(long first, long end) {
        List<DatasetRead.RowRange> runs = new ArrayList<>();
        for (DatasetPart part : stored.parts()) {
            if (part.endRow() <= first || part.firstRow() >= end) {
                continue;
            }
            long start = part.firstRow();
            ParquetMetadata footer = footer(part);
            Set<BlockMetaData> left = survivors(footer);
            for (BlockMetaData block : footer.getBlocks()) {
                long blockEnd = start + block.getRowCount();
                long from = Math.max(first, start);
                long to = Math.min(end, blockEnd);
                if (from < to) {
                    if (left.contains(block)) {
                        add(runs, from, to);
                    } else {
                        skipped++;
                    }
                }
                start = blockEnd;
            }
        }
        return runs;
    }

    /** The row groups left out so far. */
    int skipped() {
        return skipped;
    }

    private Set<BlockMetaData> survivors(ParquetMetadata footer) {
        Set<BlockMetaData> left = Collections.newSetFromMap(new IdentityHashMap<>());
        Optional<FilterPredicate> predicate =
                KeptFilters.predicate(filters, kept, footer.getFileMetaData().getSchema());
        left.addAll(
                predicate.isEmpty()
                        ? footer.getBlocks()
                        : RowGroupFilter.filterRowGroups(
                                FilterCompat.get(predicate.get()),
                                footer.getBlocks(),
                                footer.getFileMetaData().getSchema()));
        return left;
    }

    private ParquetMetadata footer(DatasetPart part) {
        try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(new Path(part.path()), conf))) {
            return reader.getFooter();
        } catch (IOException e) {
            throw new DatasetException("Cannot read " + part.path() + ": " + Reasons.of(e));
        }
    }

    /** Adds {@code [from, to)}, joined to the last run when it follows it. */
    private static void add(List<DatasetRead.RowRange> runs, long from, long to) {
        int last = runs.size() - 1;
        if (last >= 0 && runs.get(last).end() == from) {
            runs.set(last, new DatasetRead.RowRange(runs.get(last).first(), to));
        } else {
            runs.add(new DatasetRead.RowRange(from, to));
        }
    }
}
