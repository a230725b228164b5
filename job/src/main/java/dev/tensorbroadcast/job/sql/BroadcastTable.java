package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** A planned broadcast as a table Spark reads in batches; {@code properties} are the options it was made from. */
record BroadcastTable(Map<String, String> properties, BroadcastRead read) implements SupportsRead {
    BroadcastTable {
        properties = Map.copyOf(requireNonNull(properties, "properties is null"));
        requireNonNull(read, "read is null");
    }

    @Override
    public String name() {
        return TensorBroadcastSource.SHORT_NAME + " of " + read.input() + " to "
                + read.plan().output().toList() + " [" + read.plan().dialect().dialectName() + "]";
    }

    @Override
    public StructType schema() {
        return read.schema();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return Set.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return () -> new BroadcastScan(read);
    }
}
