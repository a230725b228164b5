package dev.tensorbroadcast.job.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.job.cli.TensorBroadcastCli;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestJson;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.job.store.LocalDiskStore;
import dev.tensorbroadcast.job.store.Store;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit record finished by a later process, on a real dataset the command line wrote: the markers it was about to
 * publish come back from the record alone, and a file that is not the one the job wrote is refused, record kept.
 */
class CommitRecordTest {
    private static final Store STORE = new LocalDiskStore();

    @TempDir
    Path dir;

    @Test
    void aStoppedCommitIsFinishedFromItsRecordAlone() throws Exception {
        Path output = dataset();
        byte[] manifest = Files.readAllBytes(output.resolve(Manifest.FILE_NAME));
        CommitRecord record = record(output, manifest);
        FileSystem fileSystem = FileSystem.getLocal(new Configuration()).getRawFileSystem();
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(output.toUri());
        record.write(STORE, fileSystem, path);
        // stopped after its markers went: the files are the new ones, nothing says so
        Files.delete(output.resolve(Manifest.SUCCESS_FILE_NAME));
        Files.delete(output.resolve(Manifest.FILE_NAME));

        CommitRecord found = CommitRecord.find(fileSystem, path).orElseThrow();
        assertThat(found.job()).isEqualTo("job-1");
        assertThat(found.files()).isEqualTo(record.files());
        found.finish(STORE, fileSystem, path);

        assertThat(Files.readAllBytes(output.resolve(Manifest.FILE_NAME))).isEqualTo(manifest);
        assertThat(output.resolve(Manifest.SUCCESS_FILE_NAME)).exists();
        assertThat(output.resolve(CommitRecord.FILE_NAME)).doesNotExist();
        assertThat(CommitRecord.find(fileSystem, path)).isEmpty();
    }

    @Test
    void aFileThatIsNotTheJobsIsRefusedAndTheRecordStays() throws Exception {
        Path output = dataset();
        byte[] manifest = Files.readAllBytes(output.resolve(Manifest.FILE_NAME));
        CommitRecord record = record(output, manifest);
        FileSystem fileSystem = FileSystem.getLocal(new Configuration()).getRawFileSystem();
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(output.toUri());
        record.write(STORE, fileSystem, path);
        Files.delete(output.resolve(Manifest.SUCCESS_FILE_NAME));
        Files.delete(output.resolve(Manifest.FILE_NAME));
        // as an old part file of the same size left where the new one's upload was aborted
        Path part = output.resolve("part-00001.arrow");
        byte[] bytes = Files.readAllBytes(part);
        bytes[bytes.length / 2] ^= 1;
        Files.write(part, bytes);

        assertThatThrownBy(() -> record.finish(STORE, fileSystem, path))
                .hasMessage("cannot finish the commit of job job-1: part-00001.arrow is not the file the job wrote"
                        + " (its upload is gone)");
        assertThat(output.resolve(Manifest.SUCCESS_FILE_NAME)).doesNotExist();
        assertThat(output.resolve(Manifest.FILE_NAME)).doesNotExist();
        assertThat(output.resolve(CommitRecord.FILE_NAME)).exists();
    }

    @Test
    void aRecordOfAnotherKindIsNotReadAsOne() throws Exception {
        Files.writeString(dir.resolve(CommitRecord.FILE_NAME), "{\"tensor_broadcast\":\"datasets\"}");
        FileSystem fileSystem = FileSystem.getLocal(new Configuration()).getRawFileSystem();

        assertThatThrownBy(() -> CommitRecord.find(fileSystem, new org.apache.hadoop.fs.Path(dir.toUri())))
                .hasMessageEndingWith(CommitRecord.FILE_NAME + ": it is not a commit record");
    }

    /** A dataset of three files the command line wrote on the driver's threads. */
    private Path dataset() throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        Path output = dir.resolve("out");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exitCode = TensorBroadcastCli.run(
                new String[] {
                    "expand",
                    "--input",
                    source.toString(),
                    "--dialect",
                    "numpy",
                    "--shape",
                    "24,8",
                    "--partitions",
                    "3",
                    "--output",
                    output.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(exitCode).as(out.toString(StandardCharsets.UTF_8)).isZero();
        return output;
    }

    private static CommitRecord record(Path output, byte[] manifest) throws Exception {
        Manifest parsed;
        try (InputStream in = Files.newInputStream(output.resolve(Manifest.FILE_NAME))) {
            parsed = ManifestJson.read(in, "manifest");
        }
        Map<String, Long> files = new HashMap<>();
        for (DatasetFile file : parsed.files()) {
            files.put(file.path(), file.bytes());
        }
        assertThat(files).hasSize(3);
        return new CommitRecord("job-1", files, Optional.empty(), manifest, null, new byte[0]);
    }
}
