package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A Hive-partitioned directory, as pyarrow's {@code write_to_dataset(partition_cols=...)}, polars'
 * {@code partition_by}, DuckDB's {@code PARTITION_BY} and Spark's {@code partitionBy} write it: its files lie under
 * {@code key=value/} levels, the same keys in the same order on every path. The values are decoded (Hive escapes
 * characters as {@code %XX}; {@code __HIVE_DEFAULT_PARTITION__} is null) and typed as Spark infers them: integers
 * ({@code int32}, or {@code int64} when one does not fit), dates ({@code yyyy-MM-dd}), else strings. Files are in the
 * order of their paths, level by level; names starting with {@code _} or {@code .} are skipped at every level.
 *
 * @param keys the partition keys, outermost first
 * @param files every data file, in order
 * @param columns the keys as kept columns, typed
 */
public record HiveLayout(List<String> keys, List<PartitionedFile> files, List<KeptColumn> columns) {
    static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";
    private static final Pattern INTEGER = Pattern.compile("[-+]?\\d{1,19}");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");

    /**
     * A data file and its partition values, one per key (null for the default partition).
     *
     * @param status the file
     * @param values the decoded values, in the keys' order
     */
    public record PartitionedFile(FileStatus status, List<String> values) {}

    /** Whether a directory's name is a {@code key=value} level. */
    public static boolean isPartition(String name) {
        int at = name.indexOf('=');
        return at > 0 && !name.startsWith("_") && !name.startsWith(".");
    }

    /**
     * Walks {@code directory}, whose entries ({@code partitions}: its {@code key=value} subdirectories) have been
     * listed; anything that breaks the layout is refused naming it.
     */
    public static HiveLayout scan(FileSystem fileSystem, String location, List<FileStatus> partitions)
            throws IOException {
        List<String> keys = new ArrayList<>();
        List<PartitionedFile> files = new ArrayList<>();
        walk(fileSystem, location, partitions, 0, keys, new ArrayList<>(), files);
        if (files.isEmpty()) {
            throw new SourceFormatException(
                    location,
                    "its partition directories (" + keys.get(0) + "=...) hold no" + " Arrow IPC or Parquet files");
        }
        List<KeptColumn> columns = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            int key = k;
            columns.add(new KeptColumn(
                    keys.get(k),
                    kind(files.stream().map(file -> file.values().get(key)).toList()),
                    null));
        }
        return new HiveLayout(keys, files, columns);
    }

    private static void walk(
            FileSystem fileSystem,
            String location,
            List<FileStatus> directories,
            int depth,
            List<String> keys,
            List<String> values,
            List<PartitionedFile> files)
            throws IOException {
        List<FileStatus> sorted = new ArrayList<>(directories);
        sorted.sort(Comparator.comparing(status -> status.getPath().getName()));
        for (FileStatus directory : sorted) {
            String name = directory.getPath().getName();
            if (!directory.isDirectory() || !isPartition(name)) {
                throw mixed(location, directory.getPath(), "is not a key=value directory");
            }
            String key = name.substring(0, name.indexOf('='));
            if (depth == keys.size()) {
                keys.add(key);
            } else if (!keys.get(depth).equals(key)) {
                throw mixed(
                        location,
                        directory.getPath(),
                        "is partitioned by '" + key + "' where its neighbours are" + " by '" + keys.get(depth) + "'");
            }
            String raw = name.substring(name.indexOf('=') + 1);
            List<String> here = new ArrayList<>(values);
            here.add(raw.equals(DEFAULT_PARTITION) ? null : unescape(raw));
            List<FileStatus> subdirectories = new ArrayList<>();
            List<FileStatus> data = new ArrayList<>();
            for (FileStatus entry : fileSystem.listStatus(directory.getPath())) {
                String entryName = entry.getPath().getName();
                if (entryName.startsWith("_") || entryName.startsWith(".")) {
                    continue;
                }
                (entry.isDirectory() ? subdirectories : data).add(entry);
            }
            data.sort(Comparator.comparing(status -> status.getPath().getName()));
            subdirectories.sort(Comparator.comparing(status -> status.getPath().getName()));
            if (!subdirectories.isEmpty() && !data.isEmpty()) {
                throw mixed(
                        location,
                        data.get(0).getPath(),
                        "lies beside the partition directory "
                                + subdirectories.get(0).getPath().getName());
            }
            if (!subdirectories.isEmpty()) {
                walk(fileSystem, location, subdirectories, depth + 1, keys, here, files);
            } else {
                if (depth + 1 < keys.size()) {
                    throw mixed(
                            location,
                            directory.getPath(),
                            "has " + (depth + 1) + " partition levels where other" + " paths have " + keys.size());
                }
                for (FileStatus file : data) {
                    files.add(new PartitionedFile(file, Collections.unmodifiableList(new ArrayList<>(here))));
                }
            }
        }
        for (PartitionedFile file : files) {
            if (file.values().size() != keys.size()) {
                throw mixed(
                        location,
                        file.status().getPath(),
                        "lies under " + file.values().size() + " partition" + " levels where other paths have "
                                + keys.size());
            }
        }
    }

    private static SourceFormatException mixed(String location, Path path, String reason) {
        return new SourceFormatException(
                location,
                "it is partitioned (key=value directories), but " + path + " " + reason
                        + "; a partitioned dataset holds its files under the same keys on every path");
    }

    /** Spark's inference over a key's values: integers, then dates, else strings; nulls take no part. */
    public static KeptColumn.Kind kind(List<String> values) {
        List<String> present = values.stream().filter(value -> value != null).toList();
        if (present.isEmpty()) {
            return KeptColumn.Kind.STRING;
        }
        if (present.stream().allMatch(value -> INTEGER.matcher(value).matches() && fitsLong(value))) {
            return present.stream().allMatch(value -> {
                        long number = Long.parseLong(value);
                        return number >= Integer.MIN_VALUE && number <= Integer.MAX_VALUE;
                    })
                    ? KeptColumn.Kind.INT32
                    : KeptColumn.Kind.INT64;
        }
        if (present.stream().allMatch(HiveLayout::isDate)) {
            return KeptColumn.Kind.DATE32;
        }
        return KeptColumn.Kind.STRING;
    }

    private static boolean fitsLong(String value) {
        try {
            Long.parseLong(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean isDate(String value) {
        if (!DATE.matcher(value).matches()) {
            return false;
        }
        try {
            LocalDate.parse(value);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    /** Hive's escaping undone: {@code %XX} is the byte XX of the value's UTF-8. */
    public static String unescape(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] utf8 = raw.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < utf8.length; i++) {
            if (utf8[i] == '%' && i + 2 < utf8.length && hex(utf8[i + 1]) >= 0 && hex(utf8[i + 2]) >= 0) {
                bytes.write(hex(utf8[i + 1]) * 16 + hex(utf8[i + 2]));
                i += 2;
            } else {
                bytes.write(utf8[i]);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(byte b) {
        return Character.digit(b, 16);
    }
}
