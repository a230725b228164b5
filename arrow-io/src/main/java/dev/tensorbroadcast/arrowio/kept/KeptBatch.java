package dev.tensorbroadcast.arrowio.kept;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.RowLineage;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The kept columns of one output batch: for each output row, the values of the source row it comes from
 * ({@link RowLineage}). Allocated once per file for the largest batch and refilled, so memory is bounded by the batch.
 * One call per row and column: a kept column has one value per row, where the tensor has a row's many elements.
 */
public final class KeptBatch implements AutoCloseable {
    private final KeptSource source;
    private final RowLineage lineage;
    private final KeptVectors vectors;
    private final VectorSchemaRoot root;

    private KeptBatch(KeptSource source, RowLineage lineage, KeptVectors vectors) {
        this.source = source;
        this.lineage = lineage;
        this.vectors = vectors;
        this.root = vectors.root();
    }

    public static KeptBatch allocate(KeptSource source, RowLineage lineage, int rowsPerBatch) {
        requireNonNull(source, "source is null");
        requireNonNull(lineage, "lineage is null");
        return new KeptBatch(source, lineage, KeptVectors.allocate(source.columns(), rowsPerBatch));
    }

    /** Fills output rows {@code [firstRow, firstRow + rows)} from index 0 and sets every vector's value count. */
    public void fill(long firstRow, int rows) {
        KeptRows window = source.holding(lineage.sourceRows(firstRow, firstRow + rows));
        long held = window.rows().first();
        for (int c = 0; c < root.getFieldVectors().size(); c++) {
            FieldVector from = window.vector(c);
            FieldVector to = root.getVector(c);
            to.reset();
            for (int i = 0; i < rows; i++) {
                long sourceRow = lineage.sourceRow(firstRow + i);
                if (!window.rows().contains(sourceRow)) {
                    throw new IllegalStateException("output row " + (firstRow + i) + " comes from source row "
                            + sourceRow + ", outside the rows " + window.rows() + " read");
                }
                to.copyFromSafe((int) (sourceRow - held), i, from);
            }
        }
        root.setRowCount(rows);
    }

    public List<KeptColumn> columns() {
        return source.columns();
    }

    /** The filled vectors, in column order. */
    public List<FieldVector> vectors() {
        return root.getFieldVectors();
    }

    @Override
    public void close() {
        vectors.close();
    }
}
