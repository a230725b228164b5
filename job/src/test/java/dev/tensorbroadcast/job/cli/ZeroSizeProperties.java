package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tensorbroadcast.job.pipeline.LocalSpark;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.apache.spark.sql.SparkSession;

/**
 * The net under zero-size requests (issue 24): random requests of every dialect and mode, most of them with a 0
 * somewhere, through {@code plan}, {@code expand}, {@code broadcast-tensors} and {@code reduce}. Every answer is a
 * shape (the frameworks' own, from {@link FrameworkShapes}) or a one-line refusal of a documented kind, never
 * {@code internal}; a zero-size expand has no values, and a reduce of an empty gradient is zeros.
 */
class ZeroSizeProperties {
    /** The kinds a request may be refused with (docs/errors.md); {@code internal} is a bug. */
    private static final Set<String> REFUSALS = Set.of("invalid_request", "incompatible_shapes", "too_large");

    private static SparkSession spark;
    private static Path dir;
    private static final AtomicLong NEXT = new AtomicLong();

    @BeforeContainer
    static void start() throws IOException {
        spark = LocalSpark.start();
        dir = Files.createTempDirectory("zero-size");
    }

    @AfterContainer
    static void stop() throws IOException {
        spark.stop();
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    @Provide
    Arbitrary<ZeroSizeRequest> requests() {
        return Arbitraries.randomValue(ZeroSizeRequest::any);
    }

    /** expand takes one input. */
    @Provide
    Arbitrary<ZeroSizeRequest> singleInputRequests() {
        return requests().filter(request -> request.inputs().size() == 1);
    }

    @Provide
    Arbitrary<ZeroSizeRequest> jointRequests() {
        return Arbitraries.randomValue(ZeroSizeRequest::joint);
    }

    @Property(tries = 1000)
    void planAnswersWhatTheFrameworkAnswers(
            @ForAll("requests") ZeroSizeRequest request, @ForAll @IntRange(max = 5) int partitions) {
        Optional<long[]> expected = FrameworkShapes.output(request);
        CliRun run = run("plan", partitioned(request.shapeArgs(), partitions));

        Statistics.label("answer")
                .collect(expected.map(shape -> elements(shape) == 0 ? "zero-size" : "non-empty")
                        .orElse("refused"));
        Statistics.label("answer").coverage(coverage -> {
            coverage.check("zero-size").percentage(p -> p >= 30);
            coverage.check("refused").percentage(p -> p >= 5);
        });
        if (expected.isEmpty()) {
            assertRefused(run, request);
            return;
        }
        assertThat(run.exitCode()).as("%s: %s", request, run.out()).isZero();
        JsonNode json = run.json();
        assertThat(CliRun.longs(json.get("shape"))).as("%s", request).containsExactly(expected.get());
        long elements = elements(expected.get());
        assertThat(json.get("elements").asLong()).isEqualTo(elements);
        assertThat(json.get("bytes").asLong()).isEqualTo(4 * elements);
        long rows = json.get("rows").asLong();
        long rowElements = elements(CliRun.longs(json.get("row_shape")));
        assertThat(rows * rowElements).isEqualTo(elements);
        assertThat(json.get("partitions").asLong()).isBetween(1L, Math.max(1, rows));
        assertThat(json.get("partition_rows").get("max").asLong()).isBetween(0L, rows);
    }

    @Property(tries = 50)
    void expandGivesThePlannedShapeAndNoValuesWhenEmpty(
            @ForAll("singleInputRequests") ZeroSizeRequest request, @ForAll @IntRange(max = 5) int partitions) {
        Optional<long[]> expected = FrameworkShapes.output(request);
        List<String> args = new ArrayList<>(List.of("--format", "null"));
        request.inputs()
                .forEach(input -> args.addAll(List.of("--input", source(input).toString())));
        args.addAll(request.requestArgs());
        CliRun run = run("expand", partitioned(args, partitions));

        if (expected.isEmpty()) {
            assertRefused(run, request);
            return;
        }
        assertThat(run.exitCode()).as("%s: %s", request, run.out()).isZero();
        JsonNode json = run.json();
        assertThat(CliRun.longs(json.get("shape"))).as("%s", request).containsExactly(expected.get());
        JsonNode plan =
                run("plan", partitioned(request.shapeArgs(), partitions)).json();
        assertThat(json.get("rows").asLong()).isEqualTo(plan.get("rows").asLong());
        assertThat(json.get("bytes").asLong()).isEqualTo(4 * elements(expected.get()));
        long rows = 0;
        for (JsonNode partition : json.get("partitions")) {
            rows += partition.get("rows").asLong();
            if (elements(expected.get()) == 0) {
                assertThat(partition.get("bytes").asLong()).isZero();
            }
        }
        assertThat(rows).isEqualTo(plan.get("rows").asLong());
        assertThat(json.get("partitions")).hasSize(plan.get("partitions").asInt());
    }

    @Property(tries = 40)
    void broadcastTensorsGivesEveryInputTheCommonShape(@ForAll("jointRequests") ZeroSizeRequest request)
            throws IOException {
        Optional<long[]> expected = FrameworkShapes.output(request);
        List<String> args = new ArrayList<>(List.of("--format", "null"));
        request.inputs()
                .forEach(input -> args.addAll(List.of("--input", source(input).toString())));
        args.addAll(request.requestArgs());
        CliRun run = run("broadcast-tensors", args);

        if (expected.isEmpty()) {
            assertRefused(run, request);
            return;
        }
        assertThat(run.exitCode()).as("%s: %s", request, run.out()).isZero();
        JsonNode json = run.json();
        List<JsonNode> datasets = new ArrayList<>();
        if (json.has("datasets")) {
            json.get("datasets").forEach(datasets::add);
        } else {
            datasets.add(json);
        }
        assertThat(datasets).hasSize(request.inputs().size());
        for (JsonNode dataset : datasets) {
            assertThat(CliRun.longs(dataset.get("shape"))).as("%s", request).containsExactly(expected.get());
            assertThat(dataset.get("bytes").asLong()).isEqualTo(4 * elements(expected.get()));
        }
    }

    @Property(tries = 200)
    void reducePlansTheInputsShapeFromAGradientOfTheOutputs(@ForAll("requests") ZeroSizeRequest request)
            throws IOException {
        Optional<long[]> expected = FrameworkShapes.output(request);
        // a refused request gets a gradient of the shape it meant: the refusal must be the request's
        long[] gradient = expected.orElseGet(() -> request.target() == null
                ? new long[] {0}
                : Arrays.stream(request.target()).map(dim -> Math.max(dim, 0)).toArray());
        List<String> args = new ArrayList<>(List.of(
                "--input",
                source(gradient).toString(),
                "--dry-run",
                "--output",
                dir.resolve("reduced-" + NEXT.incrementAndGet()).toString(),
                "--format",
                "arrow"));
        args.addAll(request.shapeArgs());
        CliRun run = run("reduce", args);

        if (expected.isEmpty()) {
            assertRefused(run, request);
            return;
        }
        assertThat(run.exitCode()).as("%s: %s", request, run.out()).isZero();
        JsonNode results = run.json().get("results");
        assertThat(results).hasSize(request.inputs().size());
        for (int i = 0; i < results.size(); i++) {
            assertThat(CliRun.longs(results.get(i).get("shape")))
                    .containsExactly(request.inputs().get(i));
        }
    }

    /** Summing over an empty axis gives 0: the reduce of a zero-size gradient to a non-empty input is zeros. */
    @Property(tries = 30)
    void aZeroSizeGradientReducesToZeros(@ForAll("emptyGradients") ZeroSizeRequest request) throws IOException {
        long[] gradient = FrameworkShapes.output(request).orElseThrow();
        long[] input = request.inputs().get(0);
        Path output = dir.resolve("reduced-" + NEXT.incrementAndGet() + ".npy");
        List<String> args = new ArrayList<>(
                List.of("--input", source(gradient).toString(), "--output", output.toString(), "--input-index", "0"));
        args.addAll(request.shapeArgs());
        CliRun run = run("reduce", args);

        assertThat(run.exitCode()).as("%s: %s", request, run.out()).isZero();
        JsonNode result = run.json().get("results").get(0);
        assertThat(CliRun.longs(result.get("shape"))).containsExactly(input);
        byte[] bytes = Files.readAllBytes(output);
        int values = Math.toIntExact(elements(input));
        ByteBuffer data =
                ByteBuffer.wrap(bytes, bytes.length - 4 * values, 4 * values).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < values; i++) {
            assertThat(data.getFloat()).as("element %d of %s", i, request).isEqualTo(0f);
        }
    }

    @Provide
    Arbitrary<ZeroSizeRequest> emptyGradients() {
        return requests()
                .filter(request -> FrameworkShapes.output(request)
                        .filter(shape -> elements(shape) == 0
                                && elements(request.inputs().get(0)) > 0)
                        .isPresent());
    }

    private static void assertRefused(CliRun run, ZeroSizeRequest request) {
        assertThat(run.exitCode())
                .as("%s is refused by the framework, but: %s%s", request, run.out(), run.err())
                .isEqualTo(2);
        JsonNode error = run.json().get("error");
        assertThat(error).as("%s: %s", request, run.out()).isNotNull();
        assertThat(error.get("kind").asText()).as("%s: %s", request, run.out()).isIn(REFUSALS);
        String message = error.get("message").asText();
        assertThat(message).doesNotContain("\n").startsWith("Cannot ");
    }

    /** {@code args} with {@code --partitions} when {@code partitions} is 1 or more; 0 leaves the default size. */
    private static List<String> partitioned(List<String> args, int partitions) {
        List<String> all = new ArrayList<>(args);
        if (partitions > 0) {
            all.add("--partitions=" + partitions);
        }
        return all;
    }

    private static CliRun run(String command, List<String> args) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(args);
        all.add("--json");
        return CliRun.of(all.toArray(String[]::new));
    }

    /** A float32 .npy of {@code shape} (element i is i), written once per shape. */
    private static Path source(long[] shape) {
        Path file = dir.resolve("source-" + ZeroSizeRequest.text(shape).replaceAll("[\\[\\],]", "_") + ".npy");
        if (!Files.exists(file)) {
            int count = Math.toIntExact(elements(shape));
            ByteBuffer data = ByteBuffer.allocate(4 * count).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < count; i++) {
                data.putFloat(i);
            }
            try {
                NpyFiles.write(file, "<f4", shape, data.array());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return file;
    }

    private static long elements(long[] shape) {
        return Arrays.stream(shape).reduce(1, (a, b) -> a * b);
    }
}
