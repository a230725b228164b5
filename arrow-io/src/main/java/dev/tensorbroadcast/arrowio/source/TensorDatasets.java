package dev.tensorbroadcast.arrowio.source;

import dev.tensorbroadcast.arrowio.format.DatasetColumn;
import dev.tensorbroadcast.arrowio.format.DatasetFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.FirstRowValues;
import dev.tensorbroadcast.arrowio.format.HiveLayout;
import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.PartFooter;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Opens a directory of Arrow IPC files or streams or Parquet files (on any Hadoop file system) as a
 * {@link TensorDataset}, reading only footers (a stream's message headers). Files whose names start with {@code _} or
 * {@code .} ({@code _SUCCESS}, {@code _manifest.json}, checksums) are skipped; a Hugging Face {@code save_to_disk}
 * directory is its shards ({@link HuggingFaceDirectory}). Row order: by the {@code index} column when the files have
 * one (each file a consecutive run), else by file name (a {@code save_to_disk} directory: its shards' order), then by
 * row within each file.
 */
public final class TensorDatasets {
    /** What broadcast-tensors leaves beside the datasets it writes, one per input, in numbered subdirectories. */
    private static final String DATASET_INDEX = "datasets.json";

    private TensorDatasets() {}

    /** One file with what its footer says, and its partition values (empty when the dataset has none). */
    private record Opened(FileStatus status, DatasetFileFormat format, PartFooter footer, List<String> partition) {}

    public static TensorDataset open(FileSystem fileSystem, Path directory, String location, DatasetOptions options)
            throws IOException {
        List<FileStatus> files = new ArrayList<>();
        // broadcast-tensors' datasets, one per input: 0, 1, ..., beside the index that names them
        List<String> subdirectories = new ArrayList<>();
        List<FileStatus> partitions = new ArrayList<>();
        for (FileStatus status : fileSystem.listStatus(directory)) {
            String name = status.getPath().getName();
            if (status.isFile() && !name.startsWith("_") && !name.startsWith(".")) {
                files.add(status);
            } else if (status.isDirectory() && name.matches("\\d{1,9}")) {
                subdirectories.add(name);
            } else if (status.isDirectory() && HiveLayout.isPartition(name)) {
                partitions.add(status);
            }
        }
        if (!subdirectories.isEmpty()
                && files.stream().anyMatch(file -> file.getPath().getName().equals(DATASET_INDEX))) {
            subdirectories.sort(Comparator.comparingInt(Integer::parseInt));
            throw new SourceFormatException(
                    location,
                    "it holds one dataset per input (" + DATASET_INDEX
                            + " names them: " + String.join(", ", subdirectories)
                            + "), not one dataset; give one of them, such"
                            + " as " + location.replaceAll("/+$", "") + "/" + subdirectories.get(0));
        }
        HiveLayout hive = null;
        List<List<String>> partitionValues = new ArrayList<>();
        Optional<List<FileStatus>> shards = HuggingFaceDirectory.shards(fileSystem, location, files);
        if (!partitions.isEmpty()) {
            if (!files.isEmpty()) {
                throw new SourceFormatException(
                        location,
                        "it is partitioned (key=value directories), but "
                                + files.get(0).getPath() + " lies beside "
                                + partitions.get(0).getPath().getName()
                                + "; a partitioned dataset holds its files under the same keys on every path");
            }
            hive = HiveLayout.scan(fileSystem, location, partitions);
            for (HiveLayout.PartitionedFile file : hive.files()) {
                files.add(file.status());
                partitionValues.add(file.values());
            }
        } else if (shards.isPresent()) {
            files = new ArrayList<>(shards.get());
        } else {
            files.sort(Comparator.comparing(status -> status.getPath().getName()));
        }
        if (files.isEmpty()) {
            throw new SourceFormatException(location, "the directory holds no Arrow IPC or Parquet files");
        }
        List<Opened> opened = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            FileStatus status = files.get(i);
            DatasetFileFormat format = format(fileSystem, status);
            PartFooter footer = format.footer(fileSystem, status.getPath(), status.getLen(), options.column());
            opened.add(new Opened(status, format, footer, hive == null ? List.of() : partitionValues.get(i)));
        }
        Opened first = opened.get(0);
        String firstName = first.status().getPath().getName();
        Shape rowShape =
                first.footer().column().rowShape(first.status().getPath().toString(), options.rowShape());
        DType dtype = first.footer().column().dtype();
        for (Opened file : opened) {
            DatasetColumn column = file.footer().column();
            String name = file.status().getPath().getName();
            Shape shape = column.rowShape(file.status().getPath().toString(), options.rowShape());
            if (!column.name().equals(first.footer().column().name())
                    || column.dtype() != dtype
                    || !shape.equals(rowShape)
                    || file.footer().indexed() != first.footer().indexed()) {
                throw new SourceFormatException(
                        location,
                        "file " + name + " has column " + column.describe()
                                + (file.footer().indexed() ? " with" : " without") + " an index, but " + firstName
                                + " has " + first.footer().column().describe()
                                + (first.footer().indexed() ? " with" : " without")
                                + " an index; every file of a dataset needs the same column");
            }
        }
        for (Opened file : opened) {
            requireFirstRowFits(file, rowShape);
        }
        boolean indexed = first.footer().indexed();
        if (indexed) {
            // files without rows have no first index and hold nothing to order
            opened.sort(Comparator.comparingLong((Opened file) ->
                    file.footer().rows() == 0 ? -1 : file.footer().firstIndex()));
        }
        List<OtherColumn> others = new ArrayList<>(others(opened));
        // the partition keys the files do not hold themselves (polars keeps its key in the files too: the same value)
        List<String> keys = new ArrayList<>();
        List<Integer> keyAt = new ArrayList<>();
        if (hive != null) {
            for (int k = 0; k < hive.keys().size(); k++) {
                KeptColumn key = hive.columns().get(k);
                if (others.stream().noneMatch(other -> other.name().equals(key.name()))
                        && !first.footer().column().name().equals(key.name())) {
                    others.add(OtherColumn.of(key.name(), key.typeName(), Optional.of(key)));
                    keys.add(key.name());
                    keyAt.add(k);
                }
            }
        }
        List<DatasetPart> parts = new ArrayList<>();
        long next = 0;
        for (Opened file : opened) {
            long rows = file.footer().rows();
            if (indexed && rows > 0 && file.footer().firstIndex() != next) {
                String before = next == 0
                        ? "it is the first file, so it must start at 0"
                        : "the files before it hold rows 0.." + (next - 1) + ", so it must start at " + next;
                throw new SourceFormatException(
                        location,
                        "file " + file.status().getPath().getName()
                                + " starts at index " + file.footer().firstIndex() + " but " + before
                                + "; a column named"
                                + " 'index' must number the rows 0..N-1, consecutive within each file (rename the column if it"
                                + " is an id of your own)");
            }
            parts.add(new DatasetPart(
                    file.status().getPath().toString(),
                    file.format(),
                    next,
                    file.status().getLen(),
                    file.footer().chunks(),
                    keyAt.stream().map(k -> file.partition().get(k)).toList()));
            next += rows;
        }
        return new TensorDataset(
                location, first.footer().column().name(), dtype, rowShape, indexed, parts, others, keys);
    }

    /**
     * A {@code --row-shape} that does not fit the rows is the common mistake with list columns: said here, while
     * planning, from the first row of each file, rather than by the first task that reads one. Rows after the first
     * are checked by the tasks as they read them.
     */
    private static void requireFirstRowFits(Opened file, Shape rowShape) {
        long values = file.footer().firstRowValues();
        if (values == FirstRowValues.UNKNOWN || values == rowShape.elements()) {
            return;
        }
        String given = Param.ROW_SHAPE.given(
                "Shape.parse(\"" + rowShape.toList() + "\")", rowShape.toList().toString());
        throw new SourceFormatException(
                file.status().getPath().toString(),
                "row 0 has " + values + " values;"
                        + " every row needs " + rowShape.elements() + " (" + given + ")"
                        + (values > 0
                                ? "; a "
                                        + Param.ROW_SHAPE.named() + " of " + values + " values, such as [" + values
                                        + "] or [1," + values
                                        + "], fits it"
                                : ""));
    }

    /** The first file's other columns; one that another file lacks, or stores as another type, cannot be kept. */
    private static List<OtherColumn> others(List<Opened> opened) {
        List<OtherColumn> others = new ArrayList<>(opened.get(0).footer().others());
        for (int i = 0; i < others.size(); i++) {
            OtherColumn column = others.get(i);
            if (column.kept() == null) {
                continue;
            }
            for (Opened file : opened) {
                Optional<OtherColumn> same = file.footer().others().stream()
                        .filter(other -> other.name().equals(column.name()))
                        .findFirst();
                String name = file.status().getPath().getName();
                if (same.isEmpty()) {
                    others.set(i, column.refused("file " + name + " does not have it"));
                    break;
                }
                if (same.get().kept() == null
                        || !column.kept().sameValuesAs(same.get().kept())) {
                    others.set(
                            i,
                            column.refused("it is " + column.type() + " in "
                                    + opened.get(0).status().getPath().getName() + " but "
                                    + same.get().type() + " in " + name));
                    break;
                }
            }
        }
        return others;
    }

    private static DatasetFileFormat format(FileSystem fileSystem, FileStatus status) throws IOException {
        byte[] head;
        try (InputStream in = fileSystem.open(status.getPath())) {
            head = in.readNBytes(TensorFileFormats.headBytes());
        }
        return TensorFileFormats.forFile(head)
                .orElseThrow(() -> new SourceFormatException(
                        status.getPath().toString(),
                        "it is neither an Arrow IPC file or stream nor a Parquet file (a"
                                + " dataset directory holds only those)"));
    }
}
