package dev.tensorbroadcast.job;

import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.job.sink.OutputPartitions;
import dev.tensorbroadcast.job.source.KeptSpec;
import dev.tensorbroadcast.job.source.LoadedSource;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.RowLineage;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;

/**
 * {@code --partition-by}: which directory each output row goes under, as Spark's {@code partitionBy} writes it. The
 * keys must be Hive partition keys of the input ({@code key=value} levels), kept, and their values must come in
 * contiguous runs in the input's order (by path, then row), so a run of rows is one directory: the files of one
 * input directory land in one output directory. A task's file then never spans two directories: the partitions are
 * cut at every run's first row. The keys leave the files, as Spark's do, and are read back from the paths.
 */
final class PartitionByChoice {
    private PartitionByChoice() {}

    /** What the output is partitioned by, and the columns its files keep: those kept but the keys. */
    record Chosen(Optional<OutputPartitions> partitions, Optional<KeptSpec> kept, PartitionPlan plan) {}

    static Chosen choose(
            List<String> keys,
            LoadedSource source,
            String location,
            Optional<KeptSpec> kept,
            Optional<RowLineage> lineage,
            PartitionPlan plan) {
        if (keys.isEmpty()) {
            return new Chosen(Optional.empty(), kept, plan);
        }
        String named = Param.PARTITION_BY.given(
                String.join(", ", keys.stream().map(key -> "\"" + key + "\"").toList()), String.join(",", keys));
        TensorDataset dataset = source.dataset();
        if (dataset == null) {
            throw new InvalidRequestException("Cannot partition the output by " + String.join(",", keys)
                    + ": input '" + location + "' is a single tensor, with no columns; " + Param.PARTITION_BY.named()
                    + " takes the partition keys of a dataset input (its key=value directories)");
        }
        List<String> columns = dataset.others().stream().map(OtherColumn::name).toList();
        for (String key : keys) {
            if (!columns.contains(key)) {
                throw new InvalidRequestException("Cannot partition the output by '" + key + "': input '" + location
                        + "' has no such column; its columns are "
                        + (columns.isEmpty() ? "none but the tensor" : String.join(", ", columns)) + " (" + named
                        + ")");
            }
            if (!dataset.partitionKeys().contains(key)) {
                throw new InvalidRequestException("Cannot partition the output by '" + key + "': it is a column of"
                        + " the files of input '" + location + "', not a partition key taken from its"
                        + " key=value directories alone (those: "
                        + (dataset.partitionKeys().isEmpty() ? "none" : String.join(", ", dataset.partitionKeys()))
                        + "); " + Param.PARTITION_BY.named()
                        + " takes those");
            }
        }
        if (lineage.isEmpty()) {
            throw new InvalidRequestException("Cannot partition the output by " + String.join(",", keys)
                    + ": its rows do not follow the rows of input '" + location + "' ("
                    + plan.output().toList()
                    + "), so a row has no key values; partition an output that keeps or grows the input's rows, such"
                    + " as [N,1,64] -> [N,8,64]");
        }
        List<String> keptNames = kept.map(
                        spec -> spec.columns().stream().map(KeptColumn::name).toList())
                .orElse(List.of());
        for (String key : keys) {
            if (!keptNames.contains(key)) {
                throw new InvalidRequestException("Cannot partition the output by '" + key + "': the output does"
                        + " not keep it (kept: " + (keptNames.isEmpty() ? "none" : String.join(", ", keptNames))
                        + "); keep it with " + Param.KEEP.named() + " or leave it out of " + named);
            }
        }
        RowLineage rows = lineage.orElseThrow();
        List<Integer> levels =
                keys.stream().map(dataset.partitionKeys()::indexOf).toList();
        Map<List<String>, Long> seen = new HashMap<>();
        List<Long> starts = new ArrayList<>();
        List<String> directories = new ArrayList<>();
        List<String> previous = null;
        for (DatasetPart part : dataset.parts()) {
            if (part.rows() == 0) {
                continue;
            }
            List<String> values = new ArrayList<>();
            levels.forEach(level -> values.add(part.partition().get(level)));
            if (values.equals(previous)) {
                continue;
            }
            Long earlier = seen.putIfAbsent(values, part.firstRow());
            if (earlier != null) {
                throw new InvalidRequestException("Cannot partition the output by " + String.join(",", keys)
                        + ": the values do not come in one run each in the input's order (by path, then row): row "
                        + part.firstRow() + " (" + part.path() + ") has " + describe(keys, values)
                        + " again after other values; partition by the outer keys first (the input's are "
                        + String.join(", ", dataset.partitionKeys()) + ")");
            }
            previous = values;
            long outputRow = rows.sourceRows() == 1 ? 0 : part.firstRow() * rows.outputRowsPerStep();
            if (outputRow >= plan.rows() || (!starts.isEmpty() && outputRow <= starts.get(starts.size() - 1))) {
                continue;
            }
            starts.add(outputRow);
            directories.add(directory(keys, values, dataset));
        }
        if (starts.isEmpty()) {
            // no rows: an empty dataset has no directory to go under
            return new Chosen(Optional.empty(), without(kept, keys), plan);
        }
        long[] runStarts = starts.stream().mapToLong(Long::longValue).toArray();
        long[] cuts = LongStream.concat(
                        LongStream.range(0, plan.partitionCount())
                                .map(index -> plan.partition(index).firstRow()),
                        LongStream.of(runStarts))
                .filter(row -> row < plan.rows())
                .distinct()
                .sorted()
                .toArray();
        PartitionPlan cut = cuts.length == plan.partitionCount()
                        && !LongStream.of(runStarts)
                                .anyMatch(row -> plan.partitionOfRow(row).firstRow() != row)
                ? plan
                : plan.cutAt(cuts);
        return new Chosen(Optional.of(new OutputPartitions(keys, runStarts, directories)), without(kept, keys), cut);
    }

    /** The kept columns but the keys, which the directories hold. */
    private static Optional<KeptSpec> without(Optional<KeptSpec> kept, List<String> keys) {
        return kept.flatMap(spec -> {
            List<KeptColumn> rest = spec.columns().stream()
                    .filter(column -> !keys.contains(column.name()))
                    .toList();
            return rest.isEmpty() ? Optional.empty() : Optional.of(new KeptSpec(rest, spec.lineage()));
        });
    }

    private static String describe(List<String> keys, List<String> values) {
        List<String> pairs = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            pairs.add(keys.get(k) + "=" + values.get(k));
        }
        return String.join(", ", pairs);
    }

    /**
     * Spark's path for the values: {@code key=value} levels, each escaped as Spark escapes a partition path
     * ({@code ExternalCatalogUtils}), a null or empty value as its default partition; a number or date written as
     * Spark prints its typed value ({@code +7} is {@code 7}).
     */
    static String directory(List<String> keys, List<String> values, TensorDataset dataset) {
        List<String> levels = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            String key = keys.get(k);
            String value = values.get(k);
            KeptColumn.Kind kind = dataset.others().stream()
                    .filter(column -> column.name().equals(key))
                    .findFirst()
                    .flatMap(OtherColumn::keptColumn)
                    .map(KeptColumn::kind)
                    .orElse(KeptColumn.Kind.STRING);
            String text;
            if (value == null || value.isEmpty()) {
                text = ExternalCatalogUtils.DEFAULT_PARTITION_NAME();
            } else {
                text = ExternalCatalogUtils.escapePathName(
                        switch (kind) {
                            case INT32, INT64 ->
                                Long.toString(Long.parseLong(value.startsWith("+") ? value.substring(1) : value));
                            case DATE32 -> LocalDate.parse(value).toString();
                            default -> value;
                        });
            }
            levels.add(ExternalCatalogUtils.escapePathName(key) + "=" + text);
        }
        return String.join("/", levels);
    }
}
