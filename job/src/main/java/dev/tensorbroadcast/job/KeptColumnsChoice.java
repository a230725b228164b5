package dev.tensorbroadcast.job;

import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.job.source.KeptSpec;
import dev.tensorbroadcast.job.source.LoadedSource;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.RowLineage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns {@link KeepColumns} into the columns one input keeps. By default every other column of a dataset is kept when
 * output rows follow its rows; a column that cannot be kept is refused with the {@code --keep} that would work, never
 * dropped in silence. Named columns must exist, be keepable, and have rows to follow.
 */
public final class KeptColumnsChoice {
    private KeptColumnsChoice() {}

    /**
     * The columns a dataset input at {@code location} keeps next to its rows, refused as {@code expand} refuses them
     * (for {@code plan}, which says what {@code expand} would do).
     */
    public static List<KeptColumn> columns(
            KeepColumns keep, TensorDataset dataset, String location, Optional<RowLineage> lineage) {
        return choose(keep, LoadedSource.of(dataset), location, lineage)
                .map(KeptSpec::columns)
                .orElse(List.of());
    }

    static Optional<KeptSpec> choose(
            KeepColumns keep, LoadedSource source, String location, Optional<RowLineage> lineage) {
        if (source.dataset() == null) {
            // with broadcast-tensors, --keep names the columns of the dataset inputs; a tensor input has none
            return Optional.empty();
        }
        TensorDataset dataset = source.dataset();
        if (!keep.every() && !keep.named()) {
            return Optional.empty();
        }
        if (lineage.isEmpty()) {
            if (keep.named()) {
                throw new InvalidRequestException("Cannot keep columns " + keep + " of input '" + location + "': its"
                        + " first dim is not the output's first dim, so an output row holds many of its rows (or"
                        + " none); columns are kept when the output keeps or grows its rows, such as [N,1,64] ->"
                        + " [N,8,64]; drop " + Param.KEEP.named());
            }
            return Optional.empty();
        }
        List<OtherColumn> chosen = keep.every() ? dataset.others() : named(keep, dataset, location);
        List<KeptColumn> columns = new ArrayList<>();
        for (OtherColumn column : chosen) {
            if (column.kept() == null) {
                throw new InvalidRequestException("Cannot keep column '" + column.name() + "' of input '" + location
                        + "': " + column.whyNot() + "; "
                        + (keep.every()
                                ? "choose the columns to keep with " + keep(keepable(dataset)) + ", or keep none with "
                                        + keep("none")
                                : "leave it out of " + Param.KEEP.named()));
            }
            if (column.name().equals(dev.tensorbroadcast.arrowio.TensorFileSchema.TENSOR_COLUMN)) {
                throw new InvalidRequestException("Cannot keep column 'tensor' of input '" + location + "': the"
                        + " output's tensor column has that name; choose other columns with "
                        + keep(keepable(dataset)) + ", or keep none with " + keep("none"));
            }
            columns.add(column.kept());
        }
        return columns.isEmpty() ? Optional.empty() : Optional.of(new KeptSpec(columns, lineage.get()));
    }

    /** Named columns need a dataset to come from: one of the inputs at least. */
    static void requireDataset(KeepColumns keep, List<LoadedSource> sources, String firstLocation) {
        if (sources.stream().allMatch(source -> source.dataset() == null)) {
            requireNoNames(keep, firstLocation);
        }
    }

    /**
     * Refuses named columns of {@code location}, a single tensor, as {@code expand} refuses them (for the data source,
     * whose broadcast has one input).
     */
    public static void requireNoNames(KeepColumns keep, String location) {
        if (keep.named()) {
            throw new InvalidRequestException("Cannot keep columns " + keep + " of input '" + location + "': it"
                    + " is a single tensor, with no columns to keep; columns are kept from a dataset (a directory of"
                    + " Arrow IPC or Parquet files, or one Parquet file)");
        }
    }

    private static List<OtherColumn> named(KeepColumns keep, TensorDataset dataset, String location) {
        List<OtherColumn> chosen = new ArrayList<>();
        for (String name : keep.names()) {
            if (name.equals(dataset.column())) {
                throw new InvalidRequestException("Cannot keep column '" + name + "' of input '" + location + "': it"
                        + " is the tensor column, which the output holds expanded as 'tensor'; leave it out of "
                        + Param.KEEP.named());
            }
            chosen.add(dataset.others().stream()
                    .filter(column -> column.name().equals(name))
                    .findFirst()
                    .orElseThrow(() -> new InvalidRequestException("Cannot keep column '" + name + "' of input '"
                            + location + "': it has no such column; its other columns are "
                            + names(dataset.others()))));
        }
        return chosen;
    }

    /** {@code keep(KeepColumns.parse("a,b"))} for a Java caller, {@code --keep a,b} on the command line. */
    private static String keep(String columns) {
        return Param.KEEP.given(
                columns.equals("none") ? "KeepColumns.none()" : "KeepColumns.parse(\"" + columns + "\")", columns);
    }

    /** The columns that can be kept, as {@code --keep} takes them, or {@code none}. */
    private static String keepable(TensorDataset dataset) {
        List<String> names = dataset.others().stream()
                .filter(column -> column.kept() != null)
                .filter(column -> !column.name().equals("tensor"))
                .map(OtherColumn::name)
                .toList();
        return names.isEmpty() ? "none" : String.join(",", names);
    }

    private static String names(List<OtherColumn> others) {
        return others.isEmpty()
                ? "none"
                : String.join(", ", others.stream().map(OtherColumn::name).toList());
    }
}
