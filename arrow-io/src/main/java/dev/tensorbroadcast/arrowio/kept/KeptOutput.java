package dev.tensorbroadcast.arrowio.kept;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.RowLineage;
import java.util.List;

/**
 * What a file writer needs to write kept columns: the source rows' values and which source row each output row comes
 * from.
 */
public record KeptOutput(KeptSource rows, RowLineage lineage) {
    public KeptOutput {
        requireNonNull(rows, "rows is null");
        requireNonNull(lineage, "lineage is null");
    }

    public List<KeptColumn> columns() {
        return rows.columns();
    }
}
