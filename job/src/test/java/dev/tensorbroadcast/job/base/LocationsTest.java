package dev.tensorbroadcast.job.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocationsTest {
    @TempDir
    Path tmp;

    @Test
    void aPlainPathIsQualifiedOnTheLocalFileSystem() {
        Locations.Located located = Locations.locate("input", tmp.resolve("a.npy").toString(), new Configuration());

        assertThat(located.text()).isEqualTo(tmp.resolve("a.npy").toString());
        assertThat(located.path().toUri().getScheme()).isEqualTo("file");
        assertThat(located.path().toUri().getPath()).isEqualTo(tmp.resolve("a.npy").toString());
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
                        + " use a local path or a URI with a scheme this build serves: file or hdfs");
        assertThatThrownBy(() -> Locations.locate("input", " ", conf))
                .isInstanceOf(InputException.class)
                .hasMessage("Cannot use an empty input location: give a local path or a URI such as"
                        + " hdfs://namenode/data/x");
        assertThatThrownBy(() -> Locations.locate("input", "foo://x", conf))
                .isInstanceOf(InputException.class)
                .hasMessageStartingWith("Cannot use input 'foo://x': no file system for it");
    }

    /** The README's storage section says so: no S3 connector is bundled, so s3a is refused before anything starts. */
    @Test
    void s3aIsRefusedInOneLineWhileNoConnectorIsBundled() {
        assertThatThrownBy(() -> Locations.locate("input", "s3a://bucket/x.npy", new Configuration()))
                .isInstanceOf(InputException.class)
                .hasMessage("Cannot use input 's3a://bucket/x.npy': no file system for it"
                        + " (java.lang.ClassNotFoundException: Class org.apache.hadoop.fs.s3a.S3AFileSystem not found);"
                        + " use a local path or a URI with a scheme this build serves: file or hdfs");
    }
}
