package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.job.source.KeptSpec;
import dev.tensorbroadcast.planner.SourceRows;
import org.apache.hadoop.conf.Configuration;

/**
 * The kept columns of a broadcast read whose input is a dataset: which columns, which source row each output row takes
 * them from, and every source row's values as an Arrow IPC stream, read once by the driver next to the tensor and
 * shipped to the executors with it (as {@code expand} ships a small dataset's kept rows).
 */
final class BroadcastKept {
    private final KeptSpec spec;
    private final byte[] rows;

    private BroadcastKept(KeptSpec spec, byte[] rows) {
        this.spec = requireNonNull(spec, "spec is null");
        this.rows = requireNonNull(rows, "rows is null");
    }

    /** Reads {@code spec}'s columns of all of {@code dataset}'s rows. */
    static BroadcastKept read(TensorDataset dataset, KeptSpec spec, Configuration conf) {
        try (KeptRows all = KeptReader.read(dataset, new SourceRows(0, dataset.rows()), spec.columns(), conf)) {
            return new BroadcastKept(spec, all.toIpc());
        }
    }

    KeptSpec spec() {
        return spec;
    }

    /** The source rows' values, as {@link KeptRows#fromIpc} takes them; not copied, not to be changed. */
    byte[] rows() {
        return rows;
    }
}
