package dev.tensorbroadcast.arrowio.kept;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.planner.SourceRows;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * The kept columns of a range of source rows, read next to the tensor's values: entry {@code i} of each vector is
 * source row {@code rows.first() + i}. Owns its memory; close it.
 */
public final class KeptRows implements KeptSource, AutoCloseable {
    private final List<KeptColumn> columns;
    private final SourceRows rows;
    private final KeptVectors vectors;
    private final VectorSchemaRoot root;

    private KeptRows(List<KeptColumn> columns, SourceRows rows, KeptVectors vectors) {
        this.columns = List.copyOf(columns);
        this.rows = requireNonNull(rows, "rows is null");
        this.vectors = vectors;
        this.root = vectors.root();
    }

    /** Empty vectors for {@code rows} of {@code columns}, to be filled by a source reader. */
    public static KeptRows allocate(List<KeptColumn> columns, SourceRows rows) {
        requireNonNull(columns, "columns is null");
        return new KeptRows(columns, rows, KeptVectors.allocate(columns, Math.toIntExact(rows.count())));
    }

    @Override
    public List<KeptColumn> columns() {
        return columns;
    }

    /** These rows, which hold every source row read (a row outside them is the caller's to refuse). */
    @Override
    public KeptRows holding(SourceRows wanted) {
        return this;
    }

    /** The source rows held. */
    public SourceRows rows() {
        return rows;
    }

    /** Column {@code i}'s vector; entry {@code r - rows().first()} is source row {@code r}. */
    public FieldVector vector(int i) {
        return root.getVector(i);
    }

    /** Marks every row as read: sets each vector's value count. */
    public KeptRows finish() {
        root.setRowCount(Math.toIntExact(rows.count()));
        return this;
    }

    /** The rows as an Arrow IPC stream, for shipping to every task with a shipped source. */
    public byte[] toIpc() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(bytes))) {
            writer.start();
            writer.writeBatch();
            writer.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Rows {@code wanted} of rows shipped by {@link #toIpc}, which held source rows from 0 on: a task copies out only
     * the rows its partition comes from.
     */
    public static KeptRows fromIpc(List<KeptColumn> columns, SourceRows wanted, byte[] ipc) {
        KeptRows kept = allocate(columns, wanted);
        try (BufferAllocator readAllocator = new RootAllocator();
                ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc), readAllocator)) {
            if (!reader.loadNextBatch() || reader.getVectorSchemaRoot().getRowCount() < wanted.end()) {
                throw new IllegalStateException("shipped kept columns do not hold rows " + wanted);
            }
            VectorSchemaRoot shipped = reader.getVectorSchemaRoot();
            List<FieldVector> targets = new ArrayList<>(kept.root.getFieldVectors());
            int first = Math.toIntExact(wanted.first());
            int count = Math.toIntExact(wanted.count());
            for (int c = 0; c < targets.size(); c++) {
                FieldVector from = shipped.getVector(c);
                FieldVector to = targets.get(c);
                for (int r = 0; r < count; r++) {
                    to.copyFromSafe(first + r, r, from);
                }
            }
            return kept.finish();
        } catch (IOException e) {
            kept.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            kept.close();
            throw e;
        }
    }

    @Override
    public void close() {
        vectors.close();
    }
}
