package dev.tensorbroadcast.job.store.s3;

import dev.tensorbroadcast.job.store.Store;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * S3 through hadoop-aws ({@code s3a://}), where a rename is a copy of every byte and not atomic: the tasks' files go
 * through S3A's magic committer ({@link MagicCommitter}, {@link S3Commit}), a small object is one PUT (whole or not
 * at all), and {@code --overwrite} replaces the old dataset in place at the commit. Our S3A settings:
 * {@link S3aDefaults}; what S3's refusals mean: {@link S3Failures}.
 */
public final class S3Store implements Store {
    private static final long serialVersionUID = 1L;
    /** Where S3A's magic committer stages a job's pending uploads ({@link S3Commit}). */
    private static final Pattern MAGIC = Pattern.compile("__magic(_job-[0-9a-zA-Z-]+)?");

    @Override
    public Set<String> schemes() {
        return Set.of("s3a");
    }

    @Override
    public Configuration settings(Configuration conf) {
        return S3aDefaults.apply(conf);
    }

    @Override
    public void configureJob(Configuration job, String jobUuid) {
        S3Commit.configure(job, jobUuid);
    }

    @Override
    public Optional<OutputCommitter> committer(Path output, TaskAttemptContext context) throws IOException {
        return Optional.of(new MagicCommitter(output, context));
    }

    @Override
    public boolean setsAsideOnOverwrite() {
        // a move is a copy here: the old dataset stays where it is, see S3Commit
        return false;
    }

    /** An object appears whole when its upload ends, or not at all: no staged copy, no rename (a copy). */
    @Override
    public void publish(FileSystem fileSystem, Path directory, String name, byte[] bytes) throws IOException {
        try (OutputStream out = fileSystem.create(new Path(directory, name), false)) {
            out.write(bytes);
        }
    }

    /** One request: S3A's delete would probe the file first and list the directory after. */
    @Override
    public void deleteFile(FileSystem fileSystem, Path directory, Path path) throws IOException {
        S3Commit.deleteFiles(fileSystem, directory, List.of(path));
    }

    @Override
    public void beforeCommit(FileSystem fileSystem, Path output, Optional<String> arrayMetadata) throws IOException {
        S3Commit.takeMarkers(fileSystem, output);
        if (arrayMetadata.isPresent()) {
            // an overwritten array stops reading as one before its chunks change under it
            fileSystem.delete(new Path(output, arrayMetadata.get()), false);
        }
    }

    @Override
    public Optional<Map<String, Long>> afterCommit(FileSystem fileSystem, Path output, String jobUuid,
            Set<String> names, boolean array) throws IOException {
        Map<String, Long> listed = S3Commit.afterCommit(fileSystem, output, jobUuid, names);
        if (array) {
            S3Commit.deleteStaleChunks(fileSystem, output, names);
        }
        return Optional.of(listed);
    }

    @Override
    public boolean isStagingName(String name) {
        return MAGIC.matcher(name).matches();
    }

    @Override
    public String toString() {
        return "s3a";
    }
}
