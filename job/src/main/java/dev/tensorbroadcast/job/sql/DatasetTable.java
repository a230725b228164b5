package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A dataset directory of ours as a table: read by its manifest ({@link DatasetRead}, opened when first asked for),
 * written through our writers ({@link DatasetSink}).
 *
 * @param schema the schema Spark was given or inferred
 */
record DatasetTable(String path, StructType schema, Supplier<DatasetRead> read) implements SupportsRead, SupportsWrite {
    DatasetTable {
        requireNonNull(path, "path is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(read, "read is null");
    }

    @Override
    public String name() {
        return TensorBroadcastSource.SHORT_NAME + " dataset " + path;
    }

    @Override
    public Set<TableCapability> capabilities() {
        return Set.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        DatasetOptions.requireReadOnly(options);
        return new Builder(read.get());
    }

    @Override
    public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
        return new DatasetSink(
                path,
                info.options().asCaseSensitiveMap().entrySet().stream()
                        .collect(java.util.stream.Collectors.toMap(
                                entry -> entry.getKey().toLowerCase(java.util.Locale.ROOT), Map.Entry::getValue)),
                info.schema());
    }

    /**
     * Keeps the rows filters on {@code index} leave, and the row groups filters on kept columns may keep rows of; Spark
     * applies every filter again to the rows read.
     */
    private static final class Builder implements SupportsPushDownFilters {
        private final DatasetRead read;
        private IndexRange wanted = IndexRange.ALL;
        private final List<Filter> onKept = new ArrayList<>();
        private Filter[] pushed = new Filter[0];

        Builder(DatasetRead read) {
            this.read = read;
        }

        @Override
        public Filter[] pushFilters(Filter[] filters) {
            List<Filter> used = new ArrayList<>();
            List<String> kept =
                    read.kept().stream().map(column -> column.name()).toList();
            for (Filter filter : filters) {
                var range = IndexRange.of(filter);
                if (range.isPresent()) {
                    wanted = wanted.intersect(range.get());
                    used.add(filter);
                } else if (KeptFilters.onKept(filter, kept)) {
                    onKept.add(filter);
                    used.add(filter);
                }
            }
            pushed = used.toArray(Filter[]::new);
            return filters;
        }

        @Override
        public Filter[] pushedFilters() {
            return pushed;
        }

        @Override
        public Scan build() {
            return new DatasetScan(read, wanted, onKept);
        }
    }
}
