package dev.tensorbroadcast.job.base;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The manifest's checksum: CRC-32C of a whole file as 8 lowercase hex digits, streamed through a fixed buffer. */
public final class Crc32c {
    private static final int BUFFER_BYTES = 1 << 20;

    private Crc32c() {}

    public static String of(FileSystem fileSystem, Path path) throws IOException {
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[BUFFER_BYTES];
        try (InputStream in = fileSystem.open(path)) {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                crc.update(buffer, 0, read);
            }
        }
        return hex(crc.getValue());
    }

    /** A CRC-32C value ({@link CRC32C#getValue()}) as the manifest writes it: 8 lowercase hex digits. */
    public static String hex(long value) {
        return String.format(Locale.ROOT, "%08x", value);
    }
}
