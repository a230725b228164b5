package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.job.sink.FileOptions;
import dev.tensorbroadcast.job.sink.OutputPartitions;
import dev.tensorbroadcast.job.source.KeptSpec;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.io.Serializable;
import java.util.Optional;

/**
 * What every task of one dataset needs besides the source: the partitions, the copy program, how the files are
 * written, the columns kept next to the rows ({@code kept}, null when none are), and the {@code key=value}
 * directories the files go under ({@code directories}, null when all are at the top).
 */
record DatasetSpec(
        PartitionPlan partitions, CopyProgram program, FileOptions files, KeptSpec kept, OutputPartitions directories)
        implements Serializable {
    DatasetSpec {
        requireNonNull(partitions, "partitions is null");
        requireNonNull(program, "program is null");
        requireNonNull(files, "files is null");
    }

    /** The directory, relative to the output, of the partition that starts at {@code firstRow}: "" at the top. */
    String directoryOf(long firstRow) {
        return directories == null ? "" : directories.directoryOf(firstRow);
    }

    /** The format of part files; an array's is {@link #array}. */
    DatasetFileFormat format() {
        return files.datasetFormat();
    }

    /** The array format, when the output is one chunked array rather than part files. */
    Optional<ArrayFileFormat> array() {
        return files.array();
    }

    /** The array's layout: its chunks and shards over these partitions' output. */
    ArrayLayout layout(DType dtype) {
        return files.layout(partitions, dtype);
    }
}
