package dev.tensorbroadcast.job.spark;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.ArrowTensorFileWriter;
import dev.tensorbroadcast.job.sink.OutputCompression;
import dev.tensorbroadcast.job.sink.OutputFormat;
import dev.tensorbroadcast.job.source.KeptSpec;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.PartitionPlan;
import java.io.Serializable;

/**
 * What every task of one dataset needs besides the source: the partitions, the copy program, the file format, and
 * the bytes of values per row group or record batch, the columns kept next to the rows ({@code kept}, null when none are); a compression level of 0 is the codec's
 * default.
 */
record DatasetSpec(PartitionPlan partitions, CopyProgram program, OutputFormat format, OutputCompression compression,
        int compressionLevel, long batchBytes, boolean byteStreamSplit, KeptSpec kept) implements Serializable {
    DatasetSpec(PartitionPlan partitions, CopyProgram program, OutputFormat format, OutputCompression compression) {
        this(partitions, program, format, compression, 0, ArrowTensorFileWriter.DEFAULT_BATCH_BYTES, false, null);
    }

    /** The codec as the manifest names it: {@code zstd}, or {@code zstd:9} with a level. */
    String codecName() {
        return compressionLevel == 0 ? compression.codecName() : compression.codecName() + ":" + compressionLevel;
    }

    DatasetSpec {
        requireNonNull(partitions, "partitions is null");
        requireNonNull(program, "program is null");
        requireNonNull(format, "format is null");
        requireNonNull(compression, "compression is null");
    }
}
