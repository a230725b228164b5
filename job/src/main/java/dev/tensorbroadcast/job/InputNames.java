package dev.tensorbroadcast.job;

import dev.tensorbroadcast.job.store.Locations;
import org.apache.hadoop.conf.Configuration;

/**
 * How the manifest names an input: its fully qualified URI ({@code file:/home/me/row.npy}, {@code s3a://bucket/x}),
 * so that the manifest says where its source was wherever it is read from; a relative path as typed said nothing once
 * the dataset was read from another directory or machine.
 */
final class InputNames {
    private InputNames() {}

    /** The qualified URI of {@code location}, or {@link TensorBroadcast#IN_MEMORY} for a tensor given in memory. */
    static String qualified(String location, Configuration conf) {
        if (location == null) {
            return TensorBroadcast.IN_MEMORY;
        }
        return Locations.locate("input", location, conf).path().toString();
    }
}
