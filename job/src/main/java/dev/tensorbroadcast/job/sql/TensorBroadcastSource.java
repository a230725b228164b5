package dev.tensorbroadcast.job.sql;

import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The data source {@code tensorbroadcast}: {@code spark.read.format("tensorbroadcast").option("input", ...)
 * .option("dialect", "numpy").option("shape", "1000000,4096").load()} is the broadcast as a table of {@code index
 * bigint, tensor array<type>}, computed when read; SQL's {@code CREATE TEMPORARY VIEW ... USING tensorbroadcast
 * OPTIONS (...)} is the same. The options are the command line's flags without {@code --} ({@link ReadOptions}).
 * {@code spark.read.format("tensorbroadcast").load(dir)}, without {@code input}, reads a dataset of ours by its
 * manifest ({@link DatasetRead}).
 */
public final class TensorBroadcastSource implements TableProvider, DataSourceRegister {
    /** The short name Spark finds through {@code META-INF/services}. */
    public static final String SHORT_NAME = "tensorbroadcast";

    /**
     * Spark asks for the schema, then for the table, with the same options: the source is read and planned once per
     * load (Spark makes a provider for each).
     */
    private BroadcastTable last;

    @Override
    public String shortName() {
        return SHORT_NAME;
    }

    /** The dataset last opened, by its path: Spark asks for the schema, then for the table. */
    private DatasetRead lastDataset;

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        Optional<String> path = DatasetOptions.path(options);
        if (path.isPresent()) {
            DatasetOptions.requireReadOnly(options);
            return dataset(path.get()).schema();
        }
        return table(options.asCaseSensitiveMap()).schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        Optional<String> path = DatasetOptions.path(new CaseInsensitiveStringMap(properties));
        if (path.isPresent()) {
            return new DatasetTable(path.get(), schema, () -> dataset(path.get()));
        }
        return table(properties);
    }

    /** A write gives its DataFrame's schema, of a dataset that may not exist yet. */
    @Override
    public boolean supportsExternalMetadata() {
        return true;
    }

    private synchronized DatasetRead dataset(String path) {
        if (lastDataset == null || !lastDataset.location().equals(path)) {
            lastDataset =
                    DatasetRead.open(path, SparkSession.active().sparkContext().hadoopConfiguration());
        }
        return lastDataset;
    }

    private synchronized BroadcastTable table(Map<String, String> properties) {
        ReadOptions options = ReadOptions.parse(properties);
        if (last == null || !last.properties().equals(Map.copyOf(properties))) {
            SparkSession spark = SparkSession.active();
            last = new BroadcastTable(
                    Map.copyOf(properties),
                    BroadcastRead.prepare(options, spark.sparkContext().hadoopConfiguration()));
        }
        return last;
    }
}
