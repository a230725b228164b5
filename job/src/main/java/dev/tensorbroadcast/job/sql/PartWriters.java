package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.PartOutput;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.arrowio.kept.KeptOutput;
import dev.tensorbroadcast.job.commit.DatasetCommitProtocol;
import dev.tensorbroadcast.job.commit.TaskAttempts;
import dev.tensorbroadcast.job.sink.ChecksumOutputStream;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.job.sql.WrittenPart.WrittenObject;
import dev.tensorbroadcast.job.store.Store;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Partition;
import dev.tensorbroadcast.planner.RowLineage;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.internal.io.FileCommitProtocol.TaskCommitMessage;
import org.apache.spark.internal.io.FileNameSpec;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.util.SerializableConfiguration;
import scala.Option;

/**
 * Each task's writer: it gathers its partition's rows (a consecutive run of {@code index}) and, at its commit, writes
 * them through the format's own writer, the copy kernel filling its batches as in {@code expand}, and commits them
 * through {@code expand}'s commit protocol ({@link SinkCommit}): one part file, or an array's chunk (or shard) objects
 * of its rows; the driver's job commit puts them in place ({@link DatasetSink}).
 *
 * <p>The rows are gathered on the executor's local disk, not the heap ({@link SpillFile}): the tensor's values as the
 * little-endian bytes a kernel's source holds ({@link RowValues}, read back by a kernel over the file,
 * {@link SourceTensor#inFile}), the kept columns as Arrow IPC batches ({@link KeptValues}). A task holds a buffer, a chunk of kept
 * rows and the format writer's own batch (or Zarr chunk), whatever its partition's size. Spilling, rather than handing
 * batches to the format's writer as rows arrive, keeps the files exactly those {@code expand} writes with no new
 * writer: each format lays out a file by its row count (Arrow's and Parquet's batch sizes, a Zarr array's shape),
 * which a task knows only once its last row has come. The cost is one write and one read of the partition on the
 * local disk, as Spark's own sorts spill. The files are deleted when the task commits, aborts or closes.
 *
 * @param rowShape the rows' shape from the column's metadata, or null to take the first row's length
 * @param kept the columns after {@code index} and {@code tensor}, written next to each row
 */
@SuppressWarnings("ArrayRecordComponent") // the row shape is shipped to the writers, never compared
record PartWriters(
        DatasetCommitProtocol committer,
        String jobTrackerId,
        int jobNumber,
        Store store,
        FileOptions files,
        DType dtype,
        long[] rowShape,
        List<KeptColumn> kept,
        Broadcast<SerializableConfiguration> conf)
        implements DataWriterFactory {
    PartWriters {
        requireNonNull(committer, "committer is null");
        requireNonNull(jobTrackerId, "jobTrackerId is null");
        requireNonNull(store, "store is null");
        requireNonNull(files, "files is null");
        requireNonNull(dtype, "dtype is null");
        kept = List.copyOf(requireNonNull(kept, "kept is null"));
        requireNonNull(conf, "conf is null");
    }

    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
        return new Writer(partitionId);
    }

    private final class Writer implements DataWriter<InternalRow> {
        private final int partitionId;
        /** The spill files of the values and the kept columns, opened with the first row; null before it. */
        private SpillFile valuesFile;

        private RowValues values;
        private SpillFile keptFile;
        private KeptValues keptValues;
        private long firstRow = -1;
        private long rows;
        private long rowElements = -1;

        Writer(int partitionId) {
            this.partitionId = partitionId;
        }

        @Override
        public void write(InternalRow row) throws IOException {
            long index = row.getLong(0);
            if (firstRow < 0) {
                firstRow = index;
            } else if (index != firstRow + rows) {
                throw new InvalidRequestException("Cannot write a tensorbroadcast dataset: a partition holds index "
                        + (firstRow + rows - 1) + " then " + index + "; each partition's rows must be a run of"
                        + " consecutive indexes, in order (sort within partitions by index)");
            }
            ArrayData tensor = row.getArray(1);
            long expected = rowShape != null
                    ? Shape.of(rowShape).elements()
                    : rowElements >= 0 ? rowElements : tensor.numElements();
            if (tensor.numElements() != expected) {
                throw new InvalidRequestException("Cannot write a tensorbroadcast dataset: row " + index + " holds "
                        + tensor.numElements() + " values, not " + expected);
            }
            rowElements = expected;
            if (values == null) {
                open();
            }
            values.append(tensor, index);
            if (!kept.isEmpty()) {
                keptValues.add(row);
            }
            rows++;
        }

        private void open() throws IOException {
            valuesFile = SpillFile.create();
            values = new RowValues(dtype, valuesFile.channel());
            if (!kept.isEmpty()) {
                keptFile = SpillFile.create();
                keptValues = new KeptValues(kept, keptFile);
            }
        }

        @Override
        public WriterCommitMessage commit() throws IOException {
            WriterCommitMessage message;
            try {
                message = commitRows();
            } catch (Throwable failure) {
                // the failure is the task's to report, not a spill file's
                try {
                    release();
                } catch (IOException releaseFailure) {
                    failure.addSuppressed(releaseFailure);
                }
                throw failure;
            }
            release();
            return message;
        }

        private WriterCommitMessage commitRows() throws IOException {
            Shape row = rowShape != null ? Shape.of(rowShape) : Shape.of(Math.max(rowElements, 0));
            String extension = files.format().extension();
            if (rows == 0) {
                return new WrittenPart(partitionId, extension, 0, 0, row.dims(), List.of(), "", "", null);
            }
            long[] dims = new long[row.rank() + 1];
            dims[0] = rows;
            System.arraycopy(row.dims(), 0, dims, 1, row.rank());
            SourceTensor source = SourceTensor.inFile(dtype, Shape.of(dims), values.finish());
            // the dataset's elements up to this partition's end, filled from this partition's rows
            long[] upTo = dims.clone();
            upTo[0] = firstRow + rows;
            Shape output = Shape.of(upTo);
            Partition partition = new Partition(partitionId, firstRow, rows, row.elements());
            TensorKernel kernel = TensorKernel.ofSlice(
                    source,
                    CopyProgram.of(output, output.strides()),
                    partition.firstElement(),
                    partition.firstElement(),
                    partition.endElement());
            // through the commit protocol, as expand's tasks write (pipeline.PartitionTask): the task's file (or its
            // array's objects, in the same directory) where the output's committer has the attempt write
            TaskAttemptContextImpl context = TaskAttempts.context(
                    conf.value().value(),
                    jobTrackerId,
                    jobNumber,
                    partitionId,
                    TaskContext.get().attemptNumber());
            committer.setupTask(context);
            try {
                Path file =
                        new Path(committer.newTaskTempFile(context, Option.empty(), FileNameSpec.apply("", extension)));
                FileSystem fileSystem = file.getFileSystem(context.getConfiguration());
                List<WrittenObject> objects = files.array().isPresent()
                        ? writeArray(kernel, row, fileSystem, file.getParent())
                        : List.of(writeFile(kernel, row, partition, fileSystem, file));
                TaskCommitMessage message = committer.commitTask(context);
                SparkEnv env = SparkEnv.get();
                return new WrittenPart(
                        partitionId,
                        extension,
                        firstRow,
                        rows,
                        row.dims(),
                        objects,
                        env.executorId(),
                        env.blockManager().blockManagerId().host(),
                        message);
            } catch (Throwable failure) {
                TaskAttempts.abort(committer, context, failure);
                throw failure;
            }
        }

        private WrittenObject writeFile(
                TensorKernel kernel, Shape row, Partition partition, FileSystem fileSystem, Path file)
                throws IOException {
            ChecksumOutputStream out;
            if (keptValues != null) {
                keptValues.finish(firstRow);
            }
            try (OutputStream stream = store.createObject(fileSystem, file)) {
                out = new ChecksumOutputStream(stream);
                // each output row is the kept source row of its own index
                Optional<KeptOutput> keptOutput = Optional.ofNullable(keptValues)
                        .map(held -> new KeptOutput(held, new RowLineage(firstRow + rows, 1)));
                files.datasetFormat()
                        .write(
                                kernel,
                                row,
                                partition,
                                keptOutput,
                                files.settings(),
                                written -> {},
                                PartOutput.of(out, out::bytes, file.getName()));
            }
            return new WrittenObject(file.getName(), out.bytes(), out.crc32c());
        }

        /**
         * The chunk (or shard) objects of this partition's rows, under {@code directory} by their keys: the array's
         * first dim taken up to this partition's end, which is the array's own where this partition is the last, and
         * else a multiple of the chunks' first dim (the driver checks), so every object is the one {@code expand}
         * writes.
         */
        private List<WrittenObject> writeArray(TensorKernel kernel, Shape row, FileSystem fileSystem, Path directory)
                throws IOException {
            ArrayLayout layout = SinkArrays.layout(files, dtype, firstRow + rows, row);
            long block = SinkArrays.blockRows(layout);
            if (firstRow % block != 0) {
                throw SinkArrays.notWholeChunks(firstRow, firstRow + rows, block);
            }
            List<String> keys = new ArrayList<>();
            List<ChecksumOutputStream> streams = new ArrayList<>();
            files.array()
                    .orElseThrow()
                    .write(
                            kernel,
                            layout,
                            firstRow,
                            firstRow + rows,
                            key -> {
                                ChecksumOutputStream out = new ChecksumOutputStream(
                                        store.createObject(fileSystem, new Path(directory, key)));
                                keys.add(key);
                                streams.add(out);
                                return out;
                            },
                            elements -> {});
            List<WrittenObject> objects = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                objects.add(new WrittenObject(
                        keys.get(i), streams.get(i).bytes(), streams.get(i).crc32c()));
            }
            return objects;
        }

        @Override
        public void abort() throws IOException {
            release();
        }

        @Override
        public void close() throws IOException {
            release();
        }

        /** Deletes the spill files; again does nothing. */
        private void release() throws IOException {
            try (SpillFile valuesSpill = valuesFile;
                    SpillFile keptSpill = keptFile;
                    KeptValues keptVectors = keptValues) {
                valuesFile = null;
                keptFile = null;
                keptValues = null;
                values = null;
            }
        }
    }
}
