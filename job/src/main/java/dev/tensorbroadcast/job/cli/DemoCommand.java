package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.dataset.NpyWriter;
import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code demo}: the first thing to run. Writes a small source ({@code [1,4096]} float32, 0.0 to 4095.0) as a
 * {@code .npy} file next to the output and expands it with numpy's rule, on the embedded Spark.
 */
@Command(name = "demo",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        sortOptions = false,
        description = {
            "Writes a [1,4096] float32 source to <output>.npy and expands it to [<rows>,4096] (numpy rule) as an",
            "Arrow IPC dataset in <output>, on an embedded local Spark. Replaces an earlier demo's output."
        })
final class DemoCommand implements Callable<Integer> {
    static final int COLUMNS = 4096;

    @Spec
    CommandSpec spec;

    @Option(names = "--output", paramLabel = "<dir>", defaultValue = "tensor-broadcast-demo",
            description = "The dataset directory (default: ${DEFAULT-VALUE} in the working directory).")
    String output;

    @Option(names = "--rows", paramLabel = "<rows>", defaultValue = "65536",
            description = "Rows of the output (default: ${DEFAULT-VALUE}, 1 GiB).")
    long rows;

    @Mixin
    OutputOptions outputOptions;

    @Override
    public Integer call() {
        Path source = Path.of(output + ".npy").toAbsolutePath();
        writeSource(source);
        PrintWriter err = spec.commandLine().getErr();
        if (!outputOptions.json) {
            err.println("source " + source + ": [1," + COLUMNS + "] float32, 0.0 to " + (COLUMNS - 1) + ".0");
        }
        WriteOptions write = new WriteOptions();
        write.output = output;
        write.format = "arrow";
        write.compression = "none";
        write.overwrite = true;
        SparkRun run = SparkCommands.run(spec, write, outputOptions);
        TensorBroadcast.Builder builder = TensorBroadcast.builder().source(source.toString()).dialect(Dialect.NUMPY)
                .shape(rows, COLUMNS);
        return run.run(run.configure(builder).build(), false);
    }

    /** A {@code .npy} file of {@code [1, COLUMNS]} float32 holding 0, 1, 2, ... */
    static void writeSource(Path file) {
        byte[] header = NpyWriter.header("<f4", Shape.of(1, COLUMNS));
        ByteBuffer data = ByteBuffer.allocate(header.length + 4 * COLUMNS).order(ByteOrder.LITTLE_ENDIAN);
        data.put(header);
        for (int i = 0; i < COLUMNS; i++) {
            data.putFloat(i);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(data.array());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the demo source " + file, e);
        }
    }

}
