package dev.tensorbroadcast.arrowio.format.zarr;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads a Zarr v3 array (ours or another writer's, within what {@link ZarrMetadata} accepts) rows of the first dim
 * at a time: each chunk the rows touch is read (from its own object, or through its shard's index, whose CRC-32C is
 * checked), decoded into one buffer reused for every chunk, and its part copied out; a missing chunk reads as the
 * fill value. What it holds besides the caller's rows is one decoded chunk and the indexes of the shards of one
 * shard row, whatever the array's size.
 */
final class ZarrReader implements ArrayReader {
    private final FileSystem fileSystem;
    private final Path root;
    private final ZarrMetadata metadata;
    private final ArrayLayout layout;
    private final long[] shape;
    private final long[] chunks;
    private final int width;

    ZarrReader(FileSystem fileSystem, Path root) throws IOException {
        this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
        this.root = requireNonNull(root, "root is null");
        Path json = new Path(root, ZarrFormat.METADATA);
        byte[] bytes;
        try (InputStream in = fileSystem.open(json)) {
            bytes = in.readAllBytes();
        }
        this.metadata = ZarrMetadata.read(bytes, json.toString());
        this.layout = metadata.layout();
        this.shape = layout.shape().dims();
        this.chunks = layout.chunks();
        this.width = ArrayLayout.storedBytes(layout.dtype());
        if (layout.chunkBytes() > ZarrFormat.MAX_CHUNK_BYTES) {
            throw new IOException(json + ": chunks of " + layout.chunkBytes() + " bytes; this tool reads chunks up"
                    + " to " + ZarrFormat.MAX_CHUNK_BYTES);
        }
    }

    @Override
    public ArrayLayout layout() {
        return layout;
    }

    @Override
    public List<String> blockKeys() {
        List<String> keys = new ArrayList<>();
        long[] counts = ChunkGrid.counts(shape, layout.block());
        ChunkGrid.forEach(
                new long[shape.length], counts, at -> keys.add(metadata.keys().key(at)));
        return keys;
    }

    @Override
    public byte[] readSlab(long first, long count) throws IOException {
        long inner = ChunkGrid.product(shape, 1);
        if (shape.length == 0) {
            if (first != 0 || count != 1) {
                return new byte[0];
            }
        } else if (first < 0 || count < 0 || first + count > shape[0]) {
            throw new IndexOutOfBoundsException("slab [" + first + ", " + (first + count) + ") of " + shape[0]);
        }
        byte[] slab = new byte[Math.toIntExact(Math.multiplyExact(Math.multiplyExact(count, inner), width))];
        readRows(first, count, slab, 0);
        return slab;
    }

    @Override
    public void readRows(long first, long count, byte[] into, int offset) throws IOException {
        if (shape.length == 0) {
            byte[] chunk = new byte[width];
            try (ShardRow shards = new ShardRow()) {
                readChunk(new long[0], chunk, shards);
            }
            System.arraycopy(chunk, 0, into, offset, width);
            return;
        }
        if (first < 0 || count < 0 || first + count > shape[0]) {
            throw new IndexOutOfBoundsException("rows [" + first + ", " + (first + count) + ") of " + shape[0]);
        }
        long rowElements = ChunkGrid.product(shape, 1);
        if (count == 0 || rowElements == 0) {
            return;
        }
        long[] strides = ChunkGrid.strides(shape);
        long slabStart = first * strides[0];
        long slabEnd = (first + count) * strides[0];
        long[] counts = ChunkGrid.counts(shape, chunks);
        long rowsFrom = first / chunks[0];
        long rowsTo = (first + count + chunks[0] - 1) / chunks[0];
        byte[] chunk = new byte[Math.toIntExact(layout.chunkBytes())];
        long shardRows = layout.sharded() ? layout.shard()[0] / chunks[0] : 1;
        ShardRow shards = new ShardRow();
        try {
            for (long chunkRow = rowsFrom; chunkRow < rowsTo; chunkRow++) {
                if (chunkRow == rowsFrom || chunkRow % shardRows == 0) {
                    shards.close(); // the shards of the row before are done with
                    shards = new ShardRow();
                }
                long[] from = new long[shape.length];
                long[] to = counts.clone();
                from[0] = chunkRow;
                to[0] = chunkRow + 1;
                ShardRow row = shards;
                IOException[] failure = {null};
                ChunkGrid.forEach(from, to, coordinates -> {
                    if (failure[0] == null) {
                        try {
                            copyChunk(coordinates, chunk, row, slabStart, slabEnd, into, offset);
                        } catch (IOException e) {
                            failure[0] = e;
                        }
                    }
                });
                if (failure[0] != null) {
                    throw failure[0];
                }
            }
        } finally {
            shards.close();
        }
    }

    /** Reads the chunk at {@code coordinates} and copies what of it lies in elements {@code [slabStart, slabEnd)}. */
    private void copyChunk(
            long[] coordinates, byte[] chunk, ShardRow shards, long slabStart, long slabEnd, byte[] into, int offset)
            throws IOException {
        long[] origin = new long[shape.length];
        long[] extent = new long[shape.length];
        for (int i = 0; i < shape.length; i++) {
            origin[i] = coordinates[i] * chunks[i];
            extent[i] = Math.min(chunks[i], shape[i] - origin[i]);
        }
        readChunk(coordinates, chunk, shards);
        ChunkGrid.Runs runs = ChunkGrid.Runs.of(shape, chunks, origin, extent);
        for (int r = 0; r < runs.arrayStarts().length; r++) {
            long start = Math.max(runs.arrayStarts()[r], slabStart);
            long end = Math.min(runs.arrayStarts()[r] + runs.length(), slabEnd);
            if (start < end) {
                long inChunk = runs.chunkStarts()[r] + (start - runs.arrayStarts()[r]);
                System.arraycopy(
                        chunk,
                        Math.toIntExact(inChunk * width),
                        into,
                        Math.toIntExact(offset + (start - slabStart) * width),
                        Math.toIntExact((end - start) * width));
            }
        }
    }

    /** Decodes the chunk at {@code coordinates} into {@code chunk}, little endian; the fill value when missing. */
    private void readChunk(long[] coordinates, byte[] chunk, ShardRow shards) throws IOException {
        byte[] encoded;
        String where;
        if (!layout.sharded()) {
            Path path = new Path(root, metadata.keys().key(coordinates));
            where = path.toString();
            encoded = readAll(path);
        } else {
            long[] shard = layout.shard();
            long[] shardAt = new long[shape.length];
            long[] perShard = new long[shape.length];
            for (int i = 0; i < shape.length; i++) {
                perShard[i] = shard[i] / chunks[i];
                shardAt[i] = coordinates[i] / perShard[i];
            }
            long[] strides = ChunkGrid.strides(perShard);
            long inShard = 0;
            for (int i = 0; i < shape.length; i++) {
                inShard += (coordinates[i] % perShard[i]) * strides[i];
            }
            String key = metadata.keys().key(shardAt);
            ZarrShard opened = shards.shard(
                    key,
                    () -> ZarrShard.open(
                            fileSystem,
                            new Path(root, key),
                            Math.toIntExact(ChunkGrid.product(perShard, 0)),
                            metadata));
            where = opened == null ? key : opened.path() + " chunk " + inShard;
            encoded = opened == null ? null : opened.chunk(Math.toIntExact(inShard));
        }
        if (encoded == null) {
            fill(chunk);
            return;
        }
        ChunkDecoder.decode(metadata, encoded, chunk, where);
    }

    private void fill(byte[] chunk) {
        if (metadata.zeroFill()) {
            java.util.Arrays.fill(chunk, (byte) 0);
            return;
        }
        byte[] value = metadata.fill();
        for (int at = 0; at < chunk.length; at += width) {
            System.arraycopy(value, 0, chunk, at, width);
        }
    }

    private byte[] readAll(Path path) throws IOException {
        try (InputStream in = fileSystem.open(path)) {
            return in.readAllBytes();
        } catch (FileNotFoundException e) {
            return null;
        }
    }

    /** The shards of one shard row opened so far, by key (null for a missing one); closing closes them. */
    private static final class ShardRow implements AutoCloseable {
        private final Map<String, ZarrShard> open = new HashMap<>();

        interface Opener {
            ZarrShard open() throws IOException;
        }

        ZarrShard shard(String key, Opener opener) throws IOException {
            if (open.containsKey(key)) {
                return open.get(key);
            }
            ZarrShard shard = opener.open();
            open.put(key, shard);
            return shard;
        }

        @Override
        public void close() throws IOException {
            IOException failure = null;
            for (ZarrShard shard : open.values()) {
                if (shard != null) {
                    try {
                        shard.close();
                    } catch (IOException e) {
                        failure = e;
                    }
                }
            }
            open.clear();
            if (failure != null) {
                throw failure;
            }
        }
    }
}
