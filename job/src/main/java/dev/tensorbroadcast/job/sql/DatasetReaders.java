package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.KeptReader;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.arrowio.source.DatasetSlices;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.SourceRows;
import java.util.List;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Makes each executor's reader of a dataset's rows: the task reads its rows' chunks onto the heap through the
 * dataset's own reader ({@link DatasetSlices}, as {@code expand} reads a dataset input), and the copy kernel fills
 * the batches from them, as it fills a broadcast's.
 *
 * @param stored the dataset's files, or null when {@code whole} is the dataset
 * @param shape the manifest's shape, whose rows are {@code rowShape}
 * @param kept the kept columns read next to the tensor, from the same rows of the files
 */
record DatasetReaders(
        TensorDataset stored,
        SourceTensor whole,
        Shape shape,
        Shape rowShape,
        List<KeptColumn> kept,
        Broadcast<SerializableConfiguration> conf,
        long batchBytes)
        implements PartitionReaderFactory {
    DatasetReaders {
        requireNonNull(shape, "shape is null");
        requireNonNull(rowShape, "rowShape is null");
        requireNonNull(conf, "conf is null");
        kept = List.copyOf(kept);
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        return true;
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition input) {
        DatasetScan.DatasetPartition rows = (DatasetScan.DatasetPartition) input;
        long rowElements = rowShape.elements();
        Partition partition = new Partition(0, rows.first(), rows.end() - rows.first(), rowElements);
        // the output is the dataset itself: each element read from where it lies
        CopyProgram identity = CopyProgram.of(shape, shape.strides());
        if (whole != null) {
            return new BatchReader(TensorKernel.of(whole, identity), rowShape, partition, batchBytes);
        }
        // the stored rows (an array's first dim's) that hold the partition's elements
        long storedRowElements = stored.rowShape().elements();
        long firstStored = storedRowElements == 0 ? 0 : partition.firstElement() / storedRowElements;
        long endStored = storedRowElements == 0
                ? stored.rows()
                : Math.min(stored.rows(), ceilDiv(partition.endElement(), storedRowElements));
        SourceTensor slice = DatasetSlices.read(
                        stored,
                        new SourceRows(firstStored, endStored),
                        conf.value().value())
                .tensor();
        TensorKernel kernel = TensorKernel.ofSlice(
                slice, identity, firstStored * storedRowElements, partition.firstElement(), partition.endElement());
        BatchReader tensor = new BatchReader(kernel, rowShape, partition, batchBytes);
        if (kept.isEmpty()) {
            return tensor;
        }
        // a file that keeps columns has the manifest's rows: stored rows are the partition's rows
        KeptRows keptRows = KeptReader.read(
                stored,
                new SourceRows(rows.first(), rows.end()),
                kept,
                conf.value().value());
        return new KeptBatchReader(tensor, new KeptBatches(keptRows));
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        throw new UnsupportedOperationException(
                "Cannot read a tensorbroadcast partition row by row: it is read in" + " columnar batches");
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}
