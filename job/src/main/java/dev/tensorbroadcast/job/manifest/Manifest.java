package dev.tensorbroadcast.job.manifest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code _manifest.json}: what a dataset holds and how it was made. Written by the driver after the output commit,
 * before {@code _SUCCESS}; a dataset without both is incomplete.
 *
 * @param request the request as {@link ManifestRequests#of} writes it: dialect, target shape, mode, axes, in that
 *     order
 * @param inputs each input's path, shape and dtype, and the column and row shape it was read with when given
 * @param shape the output shape; {@code rowShape} and {@code rows} say how it is cut into rows
 * @param format {@code arrow} or {@code parquet}
 * @param files every file of the dataset, in row order
 * @param rowLayout how a Parquet file lays out a row: {@code flat} (one list of its values; also every Arrow
 *     dataset's, and a manifest's written before there was a choice) or {@code nested} (one list per dimension).
 *     Only {@code nested} is written, so that tools that know no layouts still read flat datasets.
 */
public record Manifest(
        @JsonProperty("format_version") int formatVersion,
        @JsonProperty("tool_version") String toolVersion,
        @JsonProperty("created") String created,
        @JsonProperty("request") Map<String, String> request,
        @JsonProperty("inputs") List<ManifestInput> inputs,
        @JsonProperty("shape") List<Long> shape,
        @JsonProperty("dtype") String dtype,
        @JsonProperty("elements") long elements,
        @JsonProperty("bytes") long bytes,
        @JsonProperty("row_dims") int rowDims,
        @JsonProperty("row_shape") List<Long> rowShape,
        @JsonProperty("rows") long rows,
        @JsonProperty("format") String format,
        @JsonProperty("compression") String compression,
        @JsonProperty("partitions") long partitions,
        @JsonProperty("files") List<DatasetFile> files,
        @JsonProperty("kept_columns") List<KeptColumnEntry> keptColumns,

        @JsonProperty("row_layout") @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = FlatRows.class)
        String rowLayout) {
    /** The manifest format this build writes ({@code format_version}). */
    public static final int FORMAT_VERSION = 1;
    /** The manifest's file name in a dataset's directory. */
    public static final String FILE_NAME = "_manifest.json";
    /** The empty file written last: a dataset without it is incomplete. */
    public static final String SUCCESS_FILE_NAME = "_SUCCESS";
    /**
     * The name of the manifest (or of the index of several datasets) while it is written, before the rename that
     * makes it whole: a full disk leaves no half file that reads as ours.
     */
    public static final String STAGED_SUFFIX = ".staged";
    /** Every data file of a dataset is named this, its partition in 5 or more digits, and its format's extension. */
    public static final String PART_PREFIX = "part-";
    /** The row layouts, as {@code row_layout} names them. */
    public static final String FLAT_ROWS = "flat";
    /** Rows written as lists nested one level per dim ({@code --row-layout nested}). */
    public static final String NESTED_ROWS = "nested";

    /** The data file of {@code partition}: {@code part-00042.arrow}. */
    public static String partFileName(long partition, String extension) {
        return String.format(Locale.ROOT, PART_PREFIX + "%05d%s", partition, extension);
    }

    /** A manifest of a dataset that keeps no other columns. */
    public Manifest(
            int formatVersion,
            String toolVersion,
            String created,
            Map<String, String> request,
            List<ManifestInput> inputs,
            List<Long> shape,
            String dtype,
            long elements,
            long bytes,
            int rowDims,
            List<Long> rowShape,
            long rows,
            String format,
            String compression,
            long partitions,
            List<DatasetFile> files) {
        this(
                formatVersion,
                toolVersion,
                created,
                request,
                inputs,
                shape,
                dtype,
                elements,
                bytes,
                rowDims,
                rowShape,
                rows,
                format,
                compression,
                partitions,
                files,
                List.of(),
                FLAT_ROWS);
    }

    /** Copies the lists; a manifest written before kept columns existed keeps none. */
    public Manifest {
        requireNonNull(toolVersion, "toolVersion is null");
        // written before kept columns existed: none
        keptColumns = keptColumns == null ? List.of() : List.copyOf(keptColumns);
        requireNonNull(rowLayout, "rowLayout is null");
        if (!rowLayout.equals(FLAT_ROWS) && !rowLayout.equals(NESTED_ROWS)) {
            throw new ManifestException("Cannot read manifest: its row_layout is '" + rowLayout + "'; expected "
                    + FLAT_ROWS + " or " + NESTED_ROWS);
        }
        requireNonNull(created, "created is null");
        request = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(request, "request is null")));
        if (request.containsKey(null) || request.containsValue(null)) {
            throw new ManifestException("Cannot read manifest: its request has a null key or value: " + request);
        }
        inputs = List.copyOf(requireNonNull(inputs, "inputs is null"));
        shape = List.copyOf(requireNonNull(shape, "shape is null"));
        requireNonNull(dtype, "dtype is null");
        rowShape = List.copyOf(requireNonNull(rowShape, "rowShape is null"));
        requireNonNull(format, "format is null");
        requireNonNull(compression, "compression is null");
        files = List.copyOf(requireNonNull(files, "files is null"));
        if (formatVersion != FORMAT_VERSION) {
            throw new ManifestException("Cannot read manifest format version " + formatVersion + ": this tool reads"
                    + " version " + FORMAT_VERSION);
        }
        if (elements < 0 || bytes < 0 || rowDims < 0 || rows < 0 || partitions < 0) {
            throw new ManifestException(
                    "Cannot read manifest: negative element, byte, row-dim, row or partition" + " count");
        }
        long next = 0;
        for (DatasetFile file : files) {
            if (file.firstRow() != next) {
                throw new ManifestException("Cannot read manifest: file " + file.path() + " starts at row "
                        + file.firstRow() + " but the previous files end at row " + next);
            }
            next = file.endRow();
        }
        if (next != rows) {
            throw new ManifestException(
                    "Cannot read manifest: its files hold " + next + " rows but the dataset has " + rows);
        }
    }

    /** The bytes of every file of the dataset together, as listed. */
    @JsonIgnore
    public long totalFileBytes() {
        return files.stream().mapToLong(DatasetFile::bytes).sum();
    }

    /** Jackson's filter for {@code row_layout}: a value equal to this one is left out of the JSON. */
    static final class FlatRows {
        @Override
        public boolean equals(Object value) {
            return FLAT_ROWS.equals(value);
        }

        @Override
        public int hashCode() {
            return FLAT_ROWS.hashCode();
        }
    }

    /** A column written next to {@code index} and {@code tensor}, with its type as messages name it. */
    public record KeptColumnEntry(
            @JsonProperty("name") String name,
            @JsonProperty("type") String type) {
        /** Refuses a null name or type. */
        public KeptColumnEntry {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }

    /**
     * One input of the request, and how it was read: the {@code --column} and {@code --row-shape} given for it, so
     * that {@code verify --source} reads it again the same way without being told. Both are absent when not given
     * (and in manifests written before they were recorded), and left out of the file then.
     */
    public record ManifestInput(
            @JsonProperty("path") String path,
            @JsonProperty("shape") List<Long> shape,
            @JsonProperty("dtype") String dtype,

            @JsonProperty("column") @JsonInclude(JsonInclude.Include.NON_NULL)
            String column,

            @JsonProperty("row_shape") @JsonInclude(JsonInclude.Include.NON_NULL)
            List<Long> rowShape) {
        /** Copies the shapes; refuses a null path, shape or dtype. */
        public ManifestInput {
            requireNonNull(path, "path is null");
            shape = List.copyOf(requireNonNull(shape, "shape is null"));
            requireNonNull(dtype, "dtype is null");
            rowShape = rowShape == null ? null : List.copyOf(rowShape);
        }

        /** An input read with neither a column nor a row shape given. */
        public ManifestInput(String path, List<Long> shape, String dtype) {
            this(path, shape, dtype, null, null);
        }
    }
}
