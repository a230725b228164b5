package dev.tensorbroadcast.job.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.planner.RowLineage;
import java.io.Serializable;
import java.util.List;

/** The columns a dataset keeps next to its rows, and which source row each output row takes them from. */
public record KeptSpec(List<KeptColumn> columns, RowLineage lineage) implements Serializable {
    public KeptSpec {
        columns = List.copyOf(columns);
        requireNonNull(lineage, "lineage is null");
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a kept spec keeps at least one column");
        }
    }
}
