package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.arrowio.format.arrow.IpcCompression;
import dev.tensorbroadcast.planner.EnumNames;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The compression codecs of {@code --compression}: Arrow IPC body compression or the Parquet page codec, and gzip,
 * which only a Zarr array's chunks take (Zarr v3's {@code gzip} codec; {@link #ipc} is null for it).
 */
public enum OutputCompression {
    NONE("none", IpcCompression.NONE, CompressionCodecName.UNCOMPRESSED),
    LZ4("lz4", IpcCompression.LZ4, CompressionCodecName.LZ4_RAW),
    ZSTD("zstd", IpcCompression.ZSTD, CompressionCodecName.ZSTD),
    GZIP("gzip", null, CompressionCodecName.GZIP);

    private final String codecName;
    private final IpcCompression ipc;
    private final CompressionCodecName parquet;

    OutputCompression(String codecName, IpcCompression ipc, CompressionCodecName parquet) {
        this.codecName = codecName;
        this.ipc = ipc;
        this.parquet = parquet;
    }

    public String codecName() {
        return codecName;
    }

    /** Whether Arrow IPC and Parquet files take this codec: gzip is a Zarr array's only. */
    public boolean forDatasetFiles() {
        return ipc != null;
    }

    public IpcCompression ipc() {
        return ipc;
    }

    public CompressionCodecName parquet() {
        return parquet;
    }

    public static OutputCompression parse(String text) {
        return EnumNames.parse(values(), OutputCompression::codecName, text, "Cannot use compression");
    }


    @Override
    public String toString() {
        return codecName;
    }
}
