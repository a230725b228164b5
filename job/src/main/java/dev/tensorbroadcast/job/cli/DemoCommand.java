package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.sink.NpyWriter;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code demo}: the first thing to run. Writes a small source ({@code [1,4096]} float32, 0.0 to 4095.0) as a
 * {@code .npy} file next to the output and expands it with numpy's rule on the embedded default (the command's own
 * threads, without Spark), then says how to read it.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Expands a [1,4096] float32 source to [<rows>,4096] (numpy rule) as an Arrow IPC dataset.",
            "Writes the source to <output>.npy and the dataset to <output>, on this machine's cores in this process"
                    + " (the embedded default, without Spark); replaces an earlier demo's output, then says how to"
                    + " read it."
        },
        footerHeading = "%nExample:%n",
        footer = {
            "  tensor-broadcast demo --rows 1024 --output /tmp/tb/demo",
            "Writes /tmp/tb/demo.npy and a [1024,4096] float32 dataset (16 MiB) in /tmp/tb/demo."
        })
final class DemoCommand implements Callable<Integer> {
    static final int COLUMNS = 4096;

    @Spec
    CommandSpec spec;

    /** Under the temporary directory: a gigabyte in the working directory (often a clone) was a surprise. */
    @Option(
            names = "--output",
            paramLabel = "<dir>",
            defaultValue = "${sys:java.io.tmpdir}/tensor-broadcast-demo",
            description = "The dataset directory (default: ${DEFAULT-VALUE}, under the temporary directory).")
    String output;

    @Option(
            names = "--rows",
            paramLabel = "<rows>",
            defaultValue = "65536",
            description = "Rows of the output (default: ${DEFAULT-VALUE}, 1 GiB).")
    long rows;

    @Mixin
    OutputOptions outputOptions;

    @Override
    public Integer call() {
        Path source = Path.of(output + ".npy").toAbsolutePath();
        boolean created = writeSource(source);
        boolean done = false;
        try {
            int exit = expand(source);
            done = exit == ExitCode.OK;
            return exit;
        } finally {
            if (created && !done) {
                deleteQuietly(source);
            }
        }
    }

    private int expand(Path source) {
        PrintWriter err = spec.commandLine().getErr();
        if (!outputOptions.json) {
            err.println("source " + source + ": [1," + COLUMNS + "] float32, 0.0 to " + (COLUMNS - 1) + ".0");
        }
        DatasetOutputOptions target = new DatasetOutputOptions();
        target.output = output;
        target.format = "arrow";
        WriteOptions write = new WriteOptions();
        write.compression = "none";
        write.overwrite = true;
        write.partitioning = new PartitionOptions();
        SparkRun run = SparkRun.of(spec, target, write, outputOptions);
        TensorBroadcast.Builder builder = TensorBroadcast.builder()
                .source(source.toString())
                .dialect(Dialect.NUMPY)
                .shape(rows, COLUMNS);
        return run.run(builder, false);
    }

    /**
     * Writes the {@code [1, COLUMNS]} float32 source holding 0, 1, 2, ..., unless an earlier demo's identical file is
     * there; any other file at that path is the user's, and refused. Returns whether it created the file.
     */
    static boolean writeSource(Path file) {
        byte[] header = NpyWriter.header("<f4", Shape.of(1, COLUMNS));
        ByteBuffer data = ByteBuffer.allocate(header.length + 4 * COLUMNS).order(ByteOrder.LITTLE_ENDIAN);
        data.put(header);
        for (int i = 0; i < COLUMNS; i++) {
            data.putFloat(i);
        }
        try {
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                        && Files.size(file) == data.capacity()
                        && Arrays.equals(Files.readAllBytes(file), data.array())) {
                    return false;
                }
                throw new OutputException("Cannot write the demo source '" + file + "': another file is there;"
                        + " give --output a path whose .npy is free");
            }
            Files.write(file, data.array(), StandardOpenOption.CREATE_NEW);
            return true;
        } catch (NoSuchFileException e) {
            throw new OutputException("Cannot write the demo source '" + file + "': its directory does not exist");
        } catch (IOException e) {
            throw new OutputException("Cannot write the demo source '" + file + "': " + e.getMessage());
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // the run's own error is the one to report
        }
    }
}
