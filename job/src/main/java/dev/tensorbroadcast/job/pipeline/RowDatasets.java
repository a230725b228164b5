package dev.tensorbroadcast.job.pipeline;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.CopySink;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * A broadcast as a Spark {@code Dataset<Row>} of {@code index bigint, tensor array<type>}, one row per planned row,
 * computed by the executors when the dataset is used; nothing is written. Each row runs the copy program once: a run
 * of source elements is converted once, and repeats copy the converted values. Spark's rows hold one object per
 * element, so this suits moderate outputs feeding a pipeline; large ones are written as files.
 */
public final class RowDatasets {
    public static final String INDEX_COLUMN = TensorFileSchema.INDEX_COLUMN;
    /** Named as in the files, so a query reads a dataset and the written files alike. */
    public static final String TENSOR_COLUMN = TensorFileSchema.TENSOR_COLUMN;

    private RowDatasets() {}

    /**
     * The column metadata key holding a row's shape ({@code [8,64]}): Spark arrays are flat, as the files' lists are
     * (where the Arrow schema carries the shape), so the shape travels beside the values, and Spark's Parquet writer
     * keeps it in the files it writes.
     */
    public static final String SHAPE_METADATA = "tensor_shape";

    public static StructType schema(SourceTensor source, Shape rowShape) {
        return new StructType()
                .add(INDEX_COLUMN, DataTypes.LongType, false)
                .add(
                        TENSOR_COLUMN,
                        DataTypes.createArrayType(ElementReader.sparkType(source.dtype()), source.hasNulls()),
                        false,
                        shapeMetadata(Metadata.empty(), rowShape));
    }

    /** {@code metadata} with the row shape under {@link #SHAPE_METADATA}. */
    static Metadata shapeMetadata(Metadata metadata, Shape rowShape) {
        return new MetadataBuilder()
                .withMetadata(metadata)
                .putLongArray(SHAPE_METADATA, rowShape.dims())
                .build();
    }

    public static Dataset<Row> of(
            SparkSession spark, SourceTensor source, CopyProgram program, PartitionPlan partitions) {
        JavaSparkContext java = JavaSparkContext.fromSparkContext(spark.sparkContext());
        int count = Math.toIntExact(partitions.partitionCount());
        Broadcast<SourceTensor> shipped = java.broadcast(source);
        List<Integer> indexes = IntStream.range(0, count).boxed().toList();
        JavaRDD<Row> rows = java.parallelize(indexes, count)
                .mapPartitionsWithIndex(new PartitionRows(shipped, program, partitions), false);
        return spark.createDataFrame(rows, schema(source, partitions.rowShape()));
    }

    /** The rows of one partition, made one at a time as Spark asks for them. */
    private record PartitionRows(Broadcast<SourceTensor> source, CopyProgram program, PartitionPlan partitions)
            implements Function2<Integer, Iterator<Integer>, Iterator<Row>> {
        @Override
        public Iterator<Row> call(Integer index, Iterator<Integer> ignored) {
            Partition partition = partitions.partition(index);
            ElementReader reader = new ElementReader(source.value());
            int rowElements = Math.toIntExact(partition.rowElements());
            RowSink sink = new RowSink(reader);
            return new Iterator<>() {
                private long row = partition.firstRow();

                @Override
                public boolean hasNext() {
                    return row < partition.endRow();
                }

                @Override
                public Row next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    Object[] values = new Object[rowElements];
                    long first = row * rowElements;
                    sink.values = values;
                    program.run(first, first + rowElements, sink);
                    return RowFactory.create(row++, values);
                }
            };
        }
    }

    /** Fills one row's values: a copy converts source elements, a repeat copies what is already converted. */
    private static final class RowSink implements CopySink {
        private final ElementReader reader;
        private Object[] values;

        RowSink(ElementReader reader) {
            this.reader = reader;
        }

        @Override
        public void copy(long sourceOffset, long targetOffset, long length) {
            int target = (int) targetOffset;
            for (int k = 0; k < length; k++) {
                values[target + k] = reader.element(sourceOffset + k);
            }
        }

        @Override
        public void repeat(long targetOffset, long blockLength, long times) {
            int block = (int) blockLength;
            long end = targetOffset + blockLength * times;
            for (long filled = targetOffset + block; filled < end; ) {
                int length = (int) Math.min(filled - targetOffset, end - filled);
                System.arraycopy(values, (int) targetOffset, values, (int) filled, length);
                filled += length;
            }
        }
    }
}
