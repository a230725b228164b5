package dev.tensorbroadcast.job.sql;

import dev.tensorbroadcast.arrowio.format.ArrayChunking;
import dev.tensorbroadcast.arrowio.format.Compression;
import dev.tensorbroadcast.arrowio.format.RowLayout;
import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.OutputFormat;
import dev.tensorbroadcast.job.WriteSpec;
import dev.tensorbroadcast.planner.BroadcastException;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.UserText;
import java.util.List;
import java.util.Map;

/**
 * The options of {@code df.write.format("tensorbroadcast")}: {@code expand}'s write flags without {@code --}, each
 * value parsed and refused in the line the command line refuses it with, and checked together by the write request
 * ({@link WriteSpec}) as {@code expand}'s are.
 */
final class SinkOptions {
    static final String FORMAT = "format";
    static final String COMPRESSION = "compression";
    static final String ROW_GROUP_SIZE = "row-group-size";
    static final String ENCODING = "encoding";
    static final String ROW_LAYOUT = "row-layout";
    static final String CHUNKS = "chunks";
    static final String SHARD = "shard";
    static final List<String> NAMES = List.of(FORMAT, COMPRESSION, ROW_GROUP_SIZE, ENCODING, ROW_LAYOUT, CHUNKS, SHARD);

    private SinkOptions() {}

    /**
     * The write request {@code options} (keys in lower case, Spark's {@code path} among them) give; a refusal names
     * the command line's flags, whose names the options are.
     */
    static WriteSpec parse(Map<String, String> options) {
        try {
            return request(options);
        } catch (BroadcastException e) {
            throw new InvalidRequestException(e.commandLineMessage());
        }
    }

    private static WriteSpec request(Map<String, String> options) {
        for (String key : options.keySet()) {
            if (!NAMES.contains(key) && !key.equals(DatasetOptions.PATH)) {
                throw new InvalidRequestException("Cannot write a tensorbroadcast dataset with option '"
                        + UserText.shown(key) + "': expected " + String.join(", ", NAMES));
            }
        }
        String name = options.getOrDefault(FORMAT, "arrow");
        OutputFormat format = OutputFormat.parse(name);
        if (options.containsKey(CHUNKS) || options.containsKey(SHARD)) {
            // refused for part files in the line --chunks is refused with, and for an array with --chunks' lines
            format = format.withChunking(new ArrayChunking(
                    options.containsKey(CHUNKS) ? ArrayChunking.parse(options.get(CHUNKS), Param.CHUNKS) : new long[0],
                    options.containsKey(SHARD) ? ArrayChunking.parse(options.get(SHARD), Param.SHARD) : new long[0]));
        }
        if (format.array().isPresent() && !options.containsKey(CHUNKS)) {
            throw new InvalidRequestException("Cannot write a tensorbroadcast dataset as zarr without option chunks:"
                    + " expand chooses chunks from its partitions, which the sink does not know; give one size per"
                    + " dim, such as chunks 64,4096, and cut the DataFrame's partitions at multiples of the first");
        }
        WriteSpec.Builder spec = WriteSpec.builder()
                .format(format)
                .compression(Compression.parse(options.getOrDefault(COMPRESSION, "none")));
        if (options.containsKey(ROW_GROUP_SIZE)) {
            spec.rowGroupBytes(ByteSize.parse("row group size", options.get(ROW_GROUP_SIZE)));
        }
        String encoding = options.getOrDefault(ENCODING, "plain").strip();
        if (!encoding.equals("plain") && !encoding.equals("byte-stream-split")) {
            throw new InvalidRequestException(
                    "Cannot use encoding '" + UserText.shown(encoding) + "': expected plain or byte-stream-split");
        }
        String layout = options.getOrDefault(ROW_LAYOUT, "flat");
        return spec.byteStreamSplit(encoding.equals("byte-stream-split"))
                .rowLayout(RowLayout.named(layout.strip())
                        .orElseThrow(() -> new InvalidRequestException(
                                "Cannot use row layout '" + UserText.shown(layout) + "': expected flat or nested")))
                .build();
    }
}
