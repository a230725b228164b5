package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.PartOutput;
import dev.tensorbroadcast.arrowio.kept.KeptOutput;
import dev.tensorbroadcast.arrowio.kept.KeptRows;
import dev.tensorbroadcast.job.base.TaskStop;
import dev.tensorbroadcast.job.commit.TaskAttempts;
import dev.tensorbroadcast.job.sink.ChecksumChannel;
import dev.tensorbroadcast.job.sink.ChecksumOutputStream;
import dev.tensorbroadcast.job.sink.LocalDirectories;
import dev.tensorbroadcast.job.source.TaskSource;
import dev.tensorbroadcast.job.store.Store;
import dev.tensorbroadcast.planner.Partition;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.internal.io.FileCommitProtocol.TaskCommitMessage;
import org.apache.spark.util.LongAccumulator;
import org.apache.spark.util.SerializableConfiguration;
import scala.Option;

/**
 * One Spark task: writes the file of the partition with the task's index and commits it through the commit protocol,
 * the way Spark's own file writers do (setupTask, newTaskTempFile, write, commitTask; abortTask on failure).
 */
final class PartitionTask implements Function2<Integer, Iterator<Integer>, Iterator<WrittenFile>> {
    private static final long serialVersionUID = 1L;

    private final TaskSource source;
    private final DatasetSpec spec;
    private final FileCommitProtocol committer;
    private final String jobTrackerId;
    private final int jobNumber;
    private final Broadcast<SerializableConfiguration> conf;
    /** Bytes of values written, added batch by batch: Spark's heartbeats carry a running task's share. */
    private final LongAccumulator valuesWritten;

    private final LongAccumulator sourceBytesRead;
    /** The output's store: how a task creates its files and objects. */
    private final Store store;
    /** An array's directory when its objects are written in place ({@link Store#openInPlace}); null to stage them. */
    private final String arrayInPlace;

    PartitionTask(
            TaskSource source,
            DatasetSpec spec,
            FileCommitProtocol committer,
            String jobTrackerId,
            int jobNumber,
            Broadcast<SerializableConfiguration> conf,
            LongAccumulator valuesWritten,
            LongAccumulator sourceBytesRead,
            Store store,
            String arrayInPlace) {
        this.source = requireNonNull(source, "source is null");
        this.spec = requireNonNull(spec, "spec is null");
        this.committer = requireNonNull(committer, "committer is null");
        this.jobTrackerId = requireNonNull(jobTrackerId, "jobTrackerId is null");
        this.jobNumber = jobNumber;
        this.conf = requireNonNull(conf, "conf is null");
        this.valuesWritten = requireNonNull(valuesWritten, "valuesWritten is null");
        this.sourceBytesRead = requireNonNull(sourceBytesRead, "sourceBytesRead is null");
        this.store = requireNonNull(store, "store is null");
        this.arrayInPlace = arrayInPlace;
    }

    @Override
    public Iterator<WrittenFile> call(Integer index, Iterator<Integer> ignored) throws IOException {
        TaskContext task = TaskContext.get();
        Partition partition = spec.partitions().partition(index);
        TaskAttemptContextImpl context =
                TaskAttempts.context(conf.value().value(), jobTrackerId, jobNumber, index, TaskPlace.attempt());
        InjectedFailure.maybeDelay(task, context.getConfiguration(), index);
        InjectedFailure.maybeHold(index);
        // the task's own protocol, holding its attempt's committer, as a Spark task's deserialized copy does
        FileCommitProtocol committer = TaskPlace.own(this.committer);
        committer.setupTask(context);
        if (spec.array().isPresent()) {
            return writeArray(committer, context, index, task);
        }
        try {
            String directory = spec.directoryOf(partition.firstRow());
            Path file = new Path(committer.newTaskTempFile(
                    context,
                    directory.isEmpty() ? Option.empty() : Option.apply(directory),
                    org.apache.spark.internal.io.FileNameSpec.apply(
                            "", spec.format().extension())));
            TaskSource.TaskInput input = source.input(partition, spec.program(), context.getConfiguration());
            // a named accumulator shows each task's reads in Spark's UI and listener events
            sourceBytesRead.add(input.bytesRead());
            FileSystem fileSystem = file.getFileSystem(context.getConfiguration());
            FileChecksum checksum;
            try (KeptRows keptRows =
                    spec.kept() == null ? null : source.kept(partition, spec.kept(), context.getConfiguration())) {
                Optional<KeptOutput> kept = Optional.ofNullable(keptRows)
                        .map(rows -> new KeptOutput(rows, spec.kept().lineage()));
                Optional<java.nio.file.Path> local =
                        spec.format().writesToChannel() ? store.localFile(fileSystem, file) : Optional.empty();
                checksum = local.isPresent()
                        ? writeLocalChannel(input.kernel(), partition, kept, fileSystem, local.get())
                        : write(input.kernel(), partition, kept, fileSystem, file);
            }
            InjectedFailure.maybeFail(task, context.getConfiguration(), index);
            TaskCommitMessage message = committer.commitTask(context);
            String name = directory.isEmpty() ? file.getName() : directory + "/" + file.getName();
            WrittenFile written = new WrittenFile(
                    name,
                    index,
                    partition.firstRow(),
                    partition.rowCount(),
                    checksum.bytes(),
                    checksum.crc32c(),
                    TaskPlace.executorId(),
                    TaskPlace.host(),
                    input.rows().first(),
                    input.rows().count(),
                    input.bytesRead(),
                    message);
            return List.of(written).iterator();
        } catch (Throwable failure) {
            TaskAttempts.abort(committer, context, failure);
            throw failure;
        }
    }

    /**
     * An array format's task: the chunk (or shard) objects of its slab of the first dim, by their keys
     * ({@code c/3/0}). Where the store writes them in place (a local disk) they are written where they live
     * ({@code sink.InPlaceObject}: every attempt writes the same bytes, never truncating); elsewhere under the
     * attempt's directory, so that the commit moves them into
     * the array with the rest. Either way the task commits through the protocol, which lets one attempt per partition
     * report its objects. The partition's rows are listed on its first object; the metadata is the driver's, after
     * every task committed.
     */
    private Iterator<WrittenFile> writeArray(
            FileCommitProtocol committer, TaskAttemptContextImpl context, Integer index, TaskContext task)
            throws IOException {
        Partition partition = spec.partitions().partition(index);
        try {
            Path attempt = new Path(committer.newTaskTempFile(
                            context,
                            Option.empty(),
                            org.apache.spark.internal.io.FileNameSpec.apply(
                                    "", spec.files().format().extension())))
                    .getParent();
            TaskSource.TaskInput input = source.input(partition, spec.program(), context.getConfiguration());
            sourceBytesRead.add(input.bytesRead());
            FileSystem fileSystem = attempt.getFileSystem(context.getConfiguration());
            boolean inPlace = arrayInPlace != null;
            Path root = inPlace ? new Path(arrayInPlace) : attempt;
            ArrayFileFormat format = spec.array().orElseThrow();
            ArrayLayout layout = spec.layout(input.kernel().dtype());
            long perIndex = layout.shape().rank() == 0
                    ? 1
                    : spec.partitions().rows() / layout.shape().dim(0);
            List<String> keys = new ArrayList<>();
            List<ChecksumOutputStream> streams = new ArrayList<>();
            long rowElements = spec.partitions().rowElements();
            format.write(
                    input.kernel(),
                    layout,
                    partition.firstRow() / perIndex,
                    partition.endRow() / perIndex,
                    key -> {
                        keys.add(key);
                        ChecksumOutputStream out = new ChecksumOutputStream(
                                inPlace
                                        ? store.openInPlace(fileSystem, new Path(root, key))
                                        : store.createObject(fileSystem, new Path(attempt, key)));
                        streams.add(out);
                        return out;
                    },
                    elements -> {
                        valuesWritten.add(
                                rowElements == 0
                                        ? 0
                                        : elements * spec.partitions().rowBytes() / rowElements);
                        TaskStop.check();
                    });
            InjectedFailure.maybeFail(task, context.getConfiguration(), index);
            TaskCommitMessage message = committer.commitTask(context);
            List<WrittenFile> written = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                boolean first = i == 0;
                written.add(new WrittenFile(
                        keys.get(i),
                        index,
                        first ? partition.firstRow() : partition.endRow(),
                        first ? partition.rowCount() : 0,
                        streams.get(i).bytes(),
                        streams.get(i).crc32c(),
                        TaskPlace.executorId(),
                        TaskPlace.host(),
                        input.rows().first(),
                        first ? input.rows().count() : 0,
                        first ? input.bytesRead() : 0,
                        message));
            }
            return written.iterator();
        } catch (Throwable failure) {
            TaskAttempts.abort(committer, context, failure);
            throw failure;
        }
    }

    /** A written file's size and CRC-32C (8 lowercase hex digits). */
    private record FileChecksum(long bytes, String crc32c) {}

    private FileChecksum write(
            TensorKernel kernel, Partition partition, Optional<KeptOutput> kept, FileSystem fileSystem, Path file)
            throws IOException {
        ChecksumOutputStream out;
        try (OutputStream stream = store.createObject(fileSystem, file)) {
            out = new ChecksumOutputStream(stream);
            writeFile(kernel, partition, kept, PartOutput.of(out, out::bytes, file.getName()));
        }
        return new FileChecksum(out.bytes(), out.crc32c());
    }

    /**
     * A local file through a file channel, for a format that writes to one: Arrow's direct buffers go straight to
     * it, where a stream would copy every byte through small heap arrays first (about 25% more CPU per byte, see
     * {@link ChecksumChannel}).
     */
    private FileChecksum writeLocalChannel(
            TensorKernel kernel,
            Partition partition,
            Optional<KeptOutput> kept,
            FileSystem fileSystem,
            java.nio.file.Path file)
            throws IOException {
        LocalDirectories.create(file.getParent(), fileSystem.getConf());
        ChecksumChannel out;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            out = new ChecksumChannel(channel);
            writeFile(
                    kernel,
                    partition,
                    kept,
                    PartOutput.of(out, out::bytes, file.getFileName().toString()));
        }
        return new FileChecksum(out.bytes(), out.crc32c());
    }

    private void writeFile(TensorKernel kernel, Partition partition, Optional<KeptOutput> kept, PartOutput out)
            throws IOException {
        spec.format()
                .write(
                        kernel,
                        spec.partitions().rowShape(),
                        partition,
                        kept,
                        spec.files().settings(),
                        this::written,
                        out);
    }

    /** After each batch: its bytes counted, and the task stops here when it was stopped (see {@link TaskStop}). */
    private void written(long rows) {
        valuesWritten.add(rows * spec.partitions().rowBytes());
        InjectedFailure.maybeDelayBatch(TaskContext.get(), conf.value().value());
        TaskStop.check();
    }
}
