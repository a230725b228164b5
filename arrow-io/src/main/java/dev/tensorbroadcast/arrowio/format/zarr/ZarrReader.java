package dev.tensorbroadcast.arrowio.format.zarr;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.format.ArrayLayout;
import dev.tensorbroadcast.arrowio.format.ArrayReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads a Zarr v3 array (ours or another writer's, within what {@link ZarrJson} accepts) slab by slab: each chunk
 * that a slab touches is read (from its own object, or through its shard's index, whose CRC-32C is checked) and
 * decoded; a missing chunk reads as zeros, the fill value.
 */
final class ZarrReader implements ArrayReader {
    private final FileSystem fileSystem;
    private final Path root;
    private final ZarrJson.Read metadata;
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
        this.metadata = ZarrJson.read(bytes, json.toString());
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
        ChunkGrid.forEach(new long[shape.length], counts, at -> keys.add(ChunkGrid.key(at, metadata.separator())));
        return keys;
    }

    @Override
    public byte[] readSlab(long first, long count) throws IOException {
        long inner = ChunkGrid.product(shape, 1);
        if (shape.length == 0) {
            return first == 0 && count == 1 ? chunk(new long[0]) : new byte[0];
        }
        if (first < 0 || count < 0 || first + count > shape[0]) {
            throw new IndexOutOfBoundsException("slab [" + first + ", " + (first + count) + ") of " + shape[0]);
        }
        byte[] slab = new byte[Math.toIntExact(count * inner * width)];
        if (count == 0) {
            return slab;
        }
        long[] from = new long[shape.length];
        long[] to = ChunkGrid.counts(shape, chunks);
        from[0] = first / chunks[0];
        to[0] = (first + count + chunks[0] - 1) / chunks[0];
        long[] strides = ChunkGrid.strides(shape);
        long slabStart = first * strides[0];
        long slabEnd = (first + count) * strides[0];
        IOException[] failure = {null};
        ChunkGrid.forEach(from, to, coordinates -> {
            if (failure[0] != null) {
                return;
            }
            try {
                long[] origin = new long[shape.length];
                long[] extent = new long[shape.length];
                for (int i = 0; i < shape.length; i++) {
                    origin[i] = coordinates[i] * chunks[i];
                    extent[i] = Math.min(chunks[i], shape[i] - origin[i]);
                }
                byte[] chunk = chunk(coordinates);
                ChunkGrid.Runs runs = ChunkGrid.Runs.of(shape, chunks, origin, extent);
                for (int r = 0; r < runs.arrayStarts().length; r++) {
                    // a run lies within one index of the first dim unless it spans the inner dims whole
                    long start = Math.max(runs.arrayStarts()[r], slabStart);
                    long end = Math.min(runs.arrayStarts()[r] + runs.length(), slabEnd);
                    if (start < end) {
                        long inChunk = runs.chunkStarts()[r] + (start - runs.arrayStarts()[r]);
                        System.arraycopy(chunk, Math.toIntExact(inChunk * width), slab,
                                Math.toIntExact((start - slabStart) * width), Math.toIntExact((end - start) * width));
                    }
                }
            } catch (IOException e) {
                failure[0] = e;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
        return slab;
    }

    /** The decoded chunk at {@code coordinates} of the chunk grid, zeros when it is missing. */
    private byte[] chunk(long[] coordinates) throws IOException {
        int bytes = Math.toIntExact(layout.chunkBytes());
        if (!layout.sharded()) {
            Path path = new Path(root, ChunkGrid.key(coordinates, metadata.separator()));
            byte[] encoded = readAll(path);
            return encoded == null ? new byte[bytes] : ZarrCodecs.decode(metadata.innerCodec(), encoded, bytes,
                    path.toString());
        }
        long[] shard = layout.shard();
        long[] shardAt = new long[shape.length];
        long[] perShard = new long[shape.length];
        int inShard = 0;
        for (int i = 0; i < shape.length; i++) {
            perShard[i] = shard[i] / chunks[i];
            shardAt[i] = coordinates[i] / perShard[i];
        }
        long[] strides = ChunkGrid.strides(perShard);
        for (int i = 0; i < shape.length; i++) {
            inShard += (int) ((coordinates[i] % perShard[i]) * strides[i]);
        }
        Path path = new Path(root, ChunkGrid.key(shardAt, metadata.separator()));
        if (!fileSystem.exists(path)) {
            return new byte[bytes];
        }
        long length = fileSystem.getFileStatus(path).getLen();
        int count = Math.toIntExact(ChunkGrid.product(perShard, 0));
        int indexBytes = count * 16 + (metadata.indexCrc() ? 4 : 0);
        if (length < indexBytes) {
            throw new IOException(path + ": " + length + " bytes, shorter than its index of " + indexBytes);
        }
        try (FSDataInputStream in = fileSystem.open(path)) {
            byte[] index = new byte[indexBytes];
            in.readFully(metadata.indexAtEnd() ? length - indexBytes : 0, index);
            if (metadata.indexCrc()) {
                CRC32C crc = new CRC32C();
                crc.update(index, 0, count * 16);
                int stored = ByteBuffer.wrap(index, count * 16, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
                if (stored != (int) crc.getValue()) {
                    throw new IOException(path + ": shard index checksum mismatch: crc32c "
                            + String.format("%08x", crc.getValue()) + ", the index says "
                            + String.format("%08x", stored));
                }
            }
            ByteBuffer entries = ByteBuffer.wrap(index).order(ByteOrder.LITTLE_ENDIAN);
            long offset = entries.getLong(inShard * 16);
            long size = entries.getLong(inShard * 16 + 8);
            if (offset == -1L && size == -1L) {
                return new byte[bytes];
            }
            if (offset < 0 || size < 0 || size > Integer.MAX_VALUE || offset + size > length) {
                throw new IOException(path + ": chunk " + inShard + " of the shard at [" + offset + ", +" + size
                        + ") lies outside its " + length + " bytes");
            }
            byte[] encoded = new byte[(int) size];
            in.readFully(offset, encoded);
            return ZarrCodecs.decode(metadata.innerCodec(), encoded, bytes, path + " chunk " + inShard);
        }
    }

    private byte[] readAll(Path path) throws IOException {
        try (InputStream in = fileSystem.open(path)) {
            return in.readAllBytes();
        } catch (FileNotFoundException e) {
            return null;
        }
    }
}
