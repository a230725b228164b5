package dev.tensorbroadcast.benchmarks.endtoend;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.CategoryStyler;
import org.knowm.xchart.style.Styler;

/**
 * Turns the measurements of {@code bench/run.sh} into a Markdown section of {@code docs/benchmarks-e2e.md}
 * (replacing the section a previous run wrote) and a PNG chart next to it.
 *
 * <pre>{@code java ... BenchReport <results.tsv> <conditions.md> <benchmarks.md> <chart.png>}</pre>
 *
 * Each line of the results: {@code rep pattern tool bytes wall_seconds job_seconds} (job seconds: after start-up,
 * {@code -} when the tool has none). Ratios are taken per repetition (runs of one repetition ran side by side) and
 * their median is reported.
 */
public final class BenchReport {
    static final String BEGIN = "<!-- bench/run.sh results: begin (rerunning bench/run.sh replaces this section) -->";
    static final String END = "<!-- bench/run.sh results: end -->";

    /** One measured run. */
    record Run(int rep, String pattern, String tool, long bytes, double wallSeconds, double jobSeconds) {
        double wallGbps() {
            return bytes / wallSeconds / 1e9;
        }

        double jobGbps() {
            return bytes / jobSeconds / 1e9;
        }
    }

    /** A target of issue 7: a ratio of two tools' measures on one pattern, and the bound it must meet. */
    private record Target(
            String name, String numerator, String denominator, Measure measure, boolean atMost, double bound) {}

    private enum Measure {
        WALL_TIME,
        WALL_SPEED,
        JOB_SPEED,
        JOB_VS_DD
    }

    private static final List<String> TOOLS = List.of(
            "dd",
            "numpy",
            "arrow",
            "arrow-lz4",
            "null",
            "parquet",
            "sparksql",
            "parquet-zstd",
            "sparksql-zstd",
            "null-local1",
            "null-local2");
    private static final Map<String, String> TOOL_NAMES = Map.ofEntries(
            Map.entry("dd", "dd conv=fdatasync (disk limit)"),
            Map.entry("numpy", "numpy np.save(broadcast_to) + fsync"),
            Map.entry("arrow", "tensor-broadcast Arrow IPC"),
            Map.entry("arrow-lz4", "tensor-broadcast Arrow IPC LZ4"),
            Map.entry("null", "tensor-broadcast --format null"),
            Map.entry("parquet", "tensor-broadcast Parquet"),
            Map.entry("sparksql", "Spark SQL range + write.parquet"),
            Map.entry("parquet-zstd", "tensor-broadcast Parquet ZSTD"),
            Map.entry("sparksql-zstd", "Spark SQL write.parquet ZSTD"),
            Map.entry("null-local1", "--format null, local[1]"),
            Map.entry("null-local2", "--format null, local[2]"));
    private static final List<Target> TARGETS = List.of(
            new Target("Arrow IPC time vs numpy (whole process)", "arrow", "numpy", Measure.WALL_TIME, true, 1.2),
            new Target(
                    "Arrow IPC LZ4 time vs numpy (whole process)", "arrow-lz4", "numpy", Measure.WALL_TIME, true, 0.5),
            new Target("Arrow IPC throughput after start-up vs dd", "arrow", "dd", Measure.JOB_VS_DD, false, 0.8),
            new Target(
                    "Parquet speed vs Spark SQL (whole process)", "parquet", "sparksql", Measure.WALL_SPEED, false, 10),
            new Target(
                    "Parquet ZSTD speed vs Spark SQL ZSTD (whole process)",
                    "parquet-zstd",
                    "sparksql-zstd",
                    Measure.WALL_SPEED,
                    false,
                    10),
            new Target(
                    "null sink local[2] vs local[1] (after start-up)",
                    "null-local2",
                    "null-local1",
                    Measure.JOB_SPEED,
                    false,
                    1.7));

    private BenchReport() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 4) {
            throw new IllegalArgumentException("Cannot write the report with " + args.length
                    + " arguments: give <results.tsv> <conditions.md> <benchmarks.md> <chart.png>");
        }
        List<Run> runs = read(Path.of(args[0]));
        String conditions = Files.readString(Path.of(args[1]), StandardCharsets.UTF_8);
        Path chart = Path.of(args[3]);
        String section =
                BEGIN + "\n" + markdown(runs, conditions, chart.getFileName().toString()) + END + "\n";
        Path doc = Path.of(args[2]);
        String text = Files.exists(doc) ? Files.readString(doc, StandardCharsets.UTF_8) : "";
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        String updated = begin >= 0 && end > begin
                ? text.substring(0, begin)
                        + section
                        + text.substring(end + END.length()).replaceFirst("^\n", "")
                : text + (text.isEmpty() || text.endsWith("\n\n") ? "" : "\n") + section;
        Files.writeString(doc, updated, StandardCharsets.UTF_8);
        writeChart(runs, chart);
    }

    static List<Run> read(Path tsv) throws IOException {
        List<Run> runs = new ArrayList<>();
        for (String line : Files.readAllLines(tsv, StandardCharsets.UTF_8)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            @SuppressWarnings("StringSplitter") // six fields, none of them empty: a short line fails on f[5]
            String[] f = line.split("\t");
            runs.add(new Run(
                    Integer.parseInt(f[0]),
                    f[1],
                    f[2],
                    Long.parseLong(f[3]),
                    Double.parseDouble(f[4]),
                    "-".equals(f[5]) ? Double.NaN : Double.parseDouble(f[5])));
        }
        return runs;
    }

    static String markdown(List<Run> runs, String conditions, String chartName) {
        StringBuilder md = new StringBuilder();
        md.append(conditions.strip()).append("\n\n");
        md.append("### Targets (ratios of runs taken side by side, median over repetitions)\n\n");
        md.append("| target | pattern | measured | bound | met? |\n|---|---|---:|---:|---|\n");
        for (Target target : TARGETS) {
            for (String pattern : patterns(runs)) {
                OptionalDouble ratio = ratio(runs, pattern, target);
                if (ratio.isPresent()) {
                    boolean met = target.atMost()
                            ? ratio.getAsDouble() <= target.bound()
                            : ratio.getAsDouble() >= target.bound();
                    md.append(String.format(
                            Locale.ROOT,
                            "| %s | %s | %.2f | %s %.1f | %s |%n",
                            target.name(),
                            pattern,
                            ratio.getAsDouble(),
                            target.atMost() ? "<=" : ">=",
                            target.bound(),
                            met ? "yes" : "**no**"));
                }
            }
        }
        md.append("\n### Every tool (medians)\n\n");
        md.append("GB = 10^9 bytes of tensor values. *wall*: the whole process (JVM or Python start-up included) plus "
                + "the fsync of its files; *after start-up*: from a ready Spark session to the synced files (Spark "
                + "tools only).\n\n");
        md.append("| pattern | tool | GiB | runs | wall s | GB/s wall | after start-up s | GB/s after start-up "
                + "| time / numpy | speed / dd |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (String pattern : patterns(runs)) {
            for (String tool : TOOLS) {
                List<Run> mine = select(runs, pattern, tool);
                if (mine.isEmpty()) {
                    continue;
                }
                double wall = median(mine.stream().mapToDouble(Run::wallSeconds).toArray());
                double job = median(mine.stream().mapToDouble(Run::jobSeconds).toArray());
                long bytes = mine.get(0).bytes();
                OptionalDouble vsNumpy = pairedMedian(runs, pattern, tool, "numpy", Measure.WALL_TIME);
                OptionalDouble vsDd = pairedMedian(runs, pattern, tool, "dd", Measure.WALL_SPEED);
                md.append(String.format(
                        Locale.ROOT,
                        "| %s | %s | %.1f | %d | %.2f | %.2f | %s | %s | %s | %s |%n",
                        pattern,
                        TOOL_NAMES.getOrDefault(tool, tool),
                        bytes / (double) (1L << 30),
                        mine.size(),
                        wall,
                        bytes / wall / 1e9,
                        Double.isNaN(job) ? "" : String.format(Locale.ROOT, "%.2f", job),
                        Double.isNaN(job) ? "" : String.format(Locale.ROOT, "%.2f", bytes / job / 1e9),
                        format(vsNumpy, bytes, select(runs, pattern, "numpy")),
                        format(vsDd, bytes, select(runs, pattern, "dd"))));
            }
        }
        md.append("\n![GB/s per tool and pattern](").append(chartName).append(")\n\n");
        return md.toString();
    }

    /** A ratio only between runs of the same size (Parquet and Spark SQL may run at another size than dd). */
    private static String format(OptionalDouble ratio, long bytes, List<Run> base) {
        if (ratio.isEmpty() || base.isEmpty() || base.get(0).bytes() != bytes) {
            return "";
        }
        return String.format(Locale.ROOT, "%.2f", ratio.getAsDouble());
    }

    private static OptionalDouble ratio(List<Run> runs, String pattern, Target target) {
        if (target.measure() == Measure.JOB_VS_DD) {
            // our time after start-up against dd's whole time: dd has no start-up worth counting
            List<Double> ratios = new ArrayList<>();
            for (Run ours : select(runs, pattern, target.numerator())) {
                for (Run dd : select(runs, pattern, target.denominator())) {
                    if (dd.rep() == ours.rep() && dd.bytes() == ours.bytes()) {
                        ratios.add(ours.jobGbps() / dd.wallGbps());
                    }
                }
            }
            return ratios.isEmpty()
                    ? OptionalDouble.empty()
                    : OptionalDouble.of(median(
                            ratios.stream().mapToDouble(Double::doubleValue).toArray()));
        }
        return pairedMedian(runs, pattern, target.numerator(), target.denominator(), target.measure());
    }

    /** The median over repetitions of numerator / denominator, each pair from one repetition. */
    private static OptionalDouble pairedMedian(
            List<Run> runs, String pattern, String numerator, String denominator, Measure measure) {
        List<Double> ratios = new ArrayList<>();
        for (Run a : select(runs, pattern, numerator)) {
            for (Run b : select(runs, pattern, denominator)) {
                if (a.rep() == b.rep()) {
                    ratios.add(
                            switch (measure) {
                                case WALL_TIME -> a.wallSeconds() / b.wallSeconds();
                                case WALL_SPEED -> a.wallGbps() / b.wallGbps();
                                case JOB_SPEED -> a.jobGbps() / b.jobGbps();
                                case JOB_VS_DD -> a.jobGbps() / b.wallGbps();
                            });
                }
            }
        }
        return ratios.isEmpty()
                ? OptionalDouble.empty()
                : OptionalDouble.of(
                        median(ratios.stream().mapToDouble(Double::doubleValue).toArray()));
    }

    private static List<String> patterns(List<Run> runs) {
        return runs.stream().map(Run::pattern).distinct().toList();
    }

    private static List<Run> select(List<Run> runs, String pattern, String tool) {
        return runs.stream()
                .filter(r -> r.pattern().equals(pattern) && r.tool().equals(tool))
                .toList();
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** Bars of GB/s (whole process) per pattern, one series per tool that writes or computes the output. */
    private static void writeChart(List<Run> runs, Path png) throws IOException {
        List<String> patterns = patterns(runs);
        CategoryChart chart = new CategoryChartBuilder()
                .width(1100)
                .height(560)
                .title("Broadcast materialization, whole process incl. start-up and fsync (higher is better)")
                .xAxisTitle("shape pattern")
                .yAxisTitle("GB/s of tensor values")
                .build();
        CategoryStyler styler = chart.getStyler();
        styler.setLegendPosition(Styler.LegendPosition.OutsideS);
        styler.setAvailableSpaceFill(0.9);
        styler.setOverlapped(false);
        styler.setLabelsVisible(false);
        styler.setYAxisDecimalPattern("0.00");
        Map<String, List<Double>> series = new LinkedHashMap<>();
        for (String tool : TOOLS) {
            if (tool.startsWith("null-")) {
                continue;
            }
            List<Double> speeds = new ArrayList<>();
            boolean any = false;
            for (String pattern : patterns) {
                double[] gbps = select(runs, pattern, tool).stream()
                        .mapToDouble(Run::wallGbps)
                        .toArray();
                any |= gbps.length > 0;
                speeds.add(gbps.length == 0 ? 0.0 : median(gbps));
            }
            if (any) {
                series.put(TOOL_NAMES.getOrDefault(tool, tool), speeds);
            }
        }
        series.forEach((name, speeds) -> chart.addSeries(name, patterns, speeds));
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
