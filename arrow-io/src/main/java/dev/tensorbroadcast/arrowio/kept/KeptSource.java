package dev.tensorbroadcast.arrowio.kept;

import dev.tensorbroadcast.planner.SourceRows;
import java.util.List;

/**
 * Where a file writer takes the kept values of the source rows its batches come from: rows held whole
 * ({@link KeptRows}), or read a batch's worth at a time from somewhere that holds more than memory should (a sink
 * task's rows spilled to its local disk). Batches ask in row order.
 */
public interface KeptSource {
    List<KeptColumn> columns();

    /**
     * Rows holding at least source rows {@code wanted}, valid until the next call; the caller does not close them.
     *
     * @throws IllegalStateException when {@code wanted} are not rows this source holds (or can still read)
     */
    KeptRows holding(SourceRows wanted);
}
