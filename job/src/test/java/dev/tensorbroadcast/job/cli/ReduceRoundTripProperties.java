package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * expand, then reduce of what it wrote, gives the source back times the broadcast's repeats, however the rows were
 * cut: every dialect and mode, with the default partitions, a partition count or a partition size that cuts the rows
 * below the output's first dim (where the dataset's rows are not the output's), as Arrow IPC or Parquet. The
 * gradient's shape comes from the dataset's manifest, not from its rows.
 */
class ReduceRoundTripProperties {
    private static Path dir;
    private static final AtomicLong NEXT = new AtomicLong();

    @BeforeContainer
    static void start() throws IOException {
        dir = Files.createTempDirectory("reduce-round-trip");
    }

    @AfterContainer
    static void stop() throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** A request the frameworks accept, with one non-empty input and a non-empty output, and how to cut it. */
    record Cut(ZeroSizeRequest request, long[] output, List<String> partitioning, String format) {
        @Override
        public String toString() {
            return request + " " + String.join(" ", partitioning) + " --format " + format;
        }
    }

    @Provide
    Arbitrary<Cut> cuts() {
        return Arbitraries.randomValue(ReduceRoundTripProperties::cut).filter(cut -> cut != null);
    }

    private static Cut cut(Random random) {
        ZeroSizeRequest request = ZeroSizeRequest.nonEmpty(random);
        if (request.inputs().size() != 1 || elements(request.inputs().get(0)) == 0) {
            return null;
        }
        long[] output = FrameworkShapes.output(request).orElse(null);
        if (output == null || elements(output) == 0) {
            return null;
        }
        long bytes = 8 * elements(output);
        List<String> partitioning = switch (random.nextInt(3)) {
            case 0 -> List.of();
            case 1 -> List.of("--partitions=" + (1 + random.nextInt(Math.toIntExact(elements(output)))));
            default -> List.of("--partition-size=" + (8 + 8 * random.nextInt(Math.toIntExact(bytes / 8))));
        };
        return new Cut(request, output, partitioning, random.nextBoolean() ? "arrow" : "parquet");
    }

    @Property(tries = 40)
    void reduceOfAnExpandIsTheSourceTimesItsRepeats(@ForAll("cuts") Cut cut) throws IOException {
        long[] input = cut.request().inputs().get(0);
        Path source = source(input);
        Path dataset = dir.resolve("expanded-" + NEXT.incrementAndGet());
        List<String> expand = new ArrayList<>(List.of(
                "expand", "--input", source.toString(), "--output", dataset.toString(), "--format", cut.format()));
        expand.addAll(cut.request().requestArgs());
        expand.addAll(cut.partitioning());
        CliRun expanded = CliRun.of(expand.toArray(String[]::new));
        assertThat(expanded.exitCode()).as("%s: %s", cut, expanded.err()).isZero();

        Path result = dir.resolve("reduced-" + NEXT.incrementAndGet() + ".npy");
        List<String> reduce = new ArrayList<>(
                List.of("reduce", "--input", dataset.toString(), "--output", result.toString(), "--input-index", "0"));
        reduce.addAll(cut.request().shapeArgs());
        CliRun reduced = CliRun.of(reduce.toArray(String[]::new));
        assertThat(reduced.exitCode()).as("%s: %s", cut, reduced.err()).isZero();

        long repeats = elements(cut.output()) / elements(input);
        long[] values = int64Values(result, elements(input));
        for (int i = 0; i < values.length; i++) {
            assertThat(values[i]).as("element %d of %s", i, cut).isEqualTo(value(i) * repeats);
        }
    }

    /**
     * A dataset is its rows: {@code [4,960,64]} cut into 8 partitions is 3840 rows of {@code [64]}, which also reduce
     * as {@code [3840,64]}.
     */
    @Example
    void aDatasetOfOursReducesAsItsShapeAndAsItsRows() throws IOException {
        Path source = source(new long[] {1, 64});
        Path dataset = dir.resolve("expanded-" + NEXT.incrementAndGet());
        assertThat(CliRun.of(
                                "expand",
                                "--input",
                                source.toString(),
                                "--dialect",
                                "numpy",
                                "--shape",
                                "4,960,64",
                                "--partitions",
                                "8",
                                "--output",
                                dataset.toString())
                        .exitCode())
                .isZero();
        for (String shape : List.of("4,960,64", "3840,64")) {
            Path result = dir.resolve("reduced-" + NEXT.incrementAndGet() + ".npy");
            CliRun reduced = CliRun.of(
                    "reduce",
                    "--input",
                    dataset.toString(),
                    "--dialect",
                    "numpy",
                    "--input-shape",
                    "1,64",
                    "--shape",
                    shape,
                    "--output",
                    result.toString());
            assertThat(reduced.exitCode()).as("%s: %s", shape, reduced.err()).isZero();
            long[] values = int64Values(result, 64);
            for (int i = 0; i < values.length; i++) {
                assertThat(values[i]).as("element %d as %s", i, shape).isEqualTo(value(i) * 3840);
            }
        }
    }

    private static long value(long i) {
        return i * 7 + 3;
    }

    /** An int64 .npy of {@code shape} whose element i is {@link #value}: sums are exact. */
    private static Path source(long[] shape) throws IOException {
        Path file = dir.resolve("source-" + NEXT.incrementAndGet() + ".npy");
        int count = Math.toIntExact(elements(shape));
        ByteBuffer data = ByteBuffer.allocate(8 * count).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++) {
            data.putLong(value(i));
        }
        return NpyFiles.write(file, "<i8", shape, data.array());
    }

    /** The last {@code count} int64 values of a .npy: its data, after the header. */
    private static long[] int64Values(Path npy, long count) throws IOException {
        byte[] bytes = Files.readAllBytes(npy);
        int length = Math.toIntExact(8 * count);
        ByteBuffer data = ByteBuffer.wrap(bytes, bytes.length - length, length).order(ByteOrder.LITTLE_ENDIAN);
        long[] values = new long[Math.toIntExact(count)];
        for (int i = 0; i < values.length; i++) {
            values[i] = data.getLong();
        }
        return values;
    }

    private static long elements(long[] shape) {
        return Arrays.stream(shape).reduce(1, (a, b) -> a * b);
    }
}
