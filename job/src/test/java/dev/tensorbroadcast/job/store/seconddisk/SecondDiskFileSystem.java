package dev.tensorbroadcast.job.store.seconddisk;

import java.net.URI;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * A Hadoop file system of a scheme of its own, {@code seconddisk:}, over this machine's disk: {@code seconddisk:/a/b}
 * is the local file {@code /a/b}. Hadoop finds it by its scheme through its own registry of file systems (this
 * module's test {@code META-INF/services/org.apache.hadoop.fs.FileSystem}), as it finds S3A's or HDFS's.
 */
public final class SecondDiskFileSystem extends RawLocalFileSystem {
    static final URI NAME = URI.create(SecondDiskStore.SCHEME + ":///");

    @Override
    public URI getUri() {
        return NAME;
    }

    @Override
    public String getScheme() {
        return SecondDiskStore.SCHEME;
    }
}
