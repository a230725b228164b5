package dev.tensorbroadcast.job.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.base.InputException;
import dev.tensorbroadcast.job.base.OutputException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocationsTest {
    @TempDir
    Path tmp;

    @Test
    void aPlainPathIsQualifiedOnTheLocalFileSystem() {
        Locations.Located located =
                Locations.locate("input", tmp.resolve("a.npy").toString(), new Configuration());

        assertThat(located.text()).isEqualTo(tmp.resolve("a.npy").toString());
        assertThat(located.path().toUri().getScheme()).isEqualTo("file");
        assertThat(located.path().toUri().getPath())
                .isEqualTo(tmp.resolve("a.npy").toString());
    }

    @Test
    void outputsAreRefusedAsOutputsAndEverythingElseAsInputs() {
        Configuration conf = new Configuration();

        assertThatThrownBy(() -> Locations.locate(Locations.OUTPUT, "", conf))
                .isInstanceOf(OutputException.class)
                .hasMessage("Cannot use an empty output location: give a local path or a URI such as"
                        + " hdfs://namenode/data/x");
        assertThatThrownBy(() -> Locations.locate(Locations.OUTPUT, "foo://x", conf))
                .isInstanceOf(OutputException.class)
                .hasMessage("Cannot use output 'foo://x': no file system for it (No FileSystem for scheme \"foo\");"
                        + " use a local path or a URI with a scheme this build serves: file, hdfs or s3a");
        assertThatThrownBy(() -> Locations.locate("input", " ", conf))
                .isInstanceOf(InputException.class)
                .hasMessage("Cannot use an empty input location: give a local path or a URI such as"
                        + " hdfs://namenode/data/x");
        assertThatThrownBy(() -> Locations.locate("input", "foo://x", conf))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("Cannot use input 'foo://x': no file system for it");
    }

    /**
     * hadoop-aws is bundled (README, Storage): an s3a location resolves to S3A without reaching the store, which
     * only a read or write does (the bucket does not exist, and no endpoint answers here).
     */
    @Test
    void s3aResolvesToS3AWithoutReachingTheStore() {
        Configuration conf = new Configuration();
        conf.set("fs.s3a.endpoint", "http://127.0.0.1:9");

        Locations.Located located = Locations.locate("input", "s3a://no-such-bucket/x.npy", conf);

        assertThat(located.fileSystem().getClass().getName()).isEqualTo("org.apache.hadoop.fs.s3a.S3AFileSystem");
        assertThat(located.path().toString()).isEqualTo("s3a://no-such-bucket/x.npy");
    }
}
