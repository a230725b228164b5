package dev.tensorbroadcast.job.sink;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An array's object written on a local disk straight where it lives, by every attempt of its task, without a staged
 * copy and a rename: the object's bytes are the same whichever attempt writes them (deterministic contents), each
 * attempt writes them from the first byte on, and nothing ever truncates the file. So at every moment the file holds
 * a prefix of its bytes, and once one attempt has written them all they stay whole, whatever another attempt (a
 * retry, a speculative copy, one killed halfway) does after. An existing file is compared with the bytes as they
 * are written: bytes that differ (a codec that is not deterministic across executors, a stranger's file) fail the
 * task rather than mix two attempts' objects. docs/architecture.md ("Array objects in place") gives the argument.
 */
public final class InPlaceObject extends OutputStream {
    private final Path file;
    private final FileChannel channel;
    private final boolean existed;
    private long position;
    /** Whether other bytes were found: the attempt fails with that, not with the file's length. */
    private boolean refused;

    private InPlaceObject(Path file, FileChannel channel, boolean existed) {
        this.file = file;
        this.channel = channel;
        this.existed = existed;
    }

    /** Opens {@code file} (and the directories above it) for its bytes: new, or another attempt's, kept. */
    public static InPlaceObject open(Path file) throws IOException {
        requireNonNull(file, "file is null");
        Files.createDirectories(file.getParent());
        try {
            return new InPlaceObject(
                    file, FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), false);
        } catch (FileAlreadyExistsException e) {
            // never TRUNCATE_EXISTING: a whole object another attempt wrote must not be cut, even for a moment
            return new InPlaceObject(
                    file, FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE), true);
        }
    }

    /** Whether another attempt had created the file before this one opened it. */
    public boolean existed() {
        return existed;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (existed) {
            requireSame(bytes, offset, length);
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
        position = at;
    }

    /** What another attempt wrote at these positions (a prefix of them, or all) must be these bytes. */
    private void requireSame(byte[] bytes, int offset, int length) throws IOException {
        ByteBuffer found = ByteBuffer.allocate(length);
        long at = position;
        int read;
        while (found.hasRemaining() && (read = channel.read(found, at)) > 0) {
            at += read;
        }
        for (int i = 0; i < found.position(); i++) {
            if (found.get(i) != bytes[offset + i]) {
                refused = true;
                throw new IOException(file + " holds other bytes than this attempt's from byte " + (position + i)
                        + " on: another attempt wrote different contents (a codec that is not deterministic across"
                        + " executors?), or the file is not this job's");
            }
        }
    }

    @Override
    public void close() throws IOException {
        try (channel) {
            if (existed && !refused && channel.size() > position) {
                throw new IOException(file + " is " + channel.size() + " bytes, longer than the " + position
                        + " this attempt wrote: it is not this job's");
            }
        }
    }
}
