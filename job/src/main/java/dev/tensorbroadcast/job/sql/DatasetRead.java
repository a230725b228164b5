package dev.tensorbroadcast.job.sql;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorFileSchema;
import dev.tensorbroadcast.arrowio.format.DatasetChunk;
import dev.tensorbroadcast.arrowio.format.DatasetPart;
import dev.tensorbroadcast.arrowio.format.OtherColumn;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowSourceOptions;
import dev.tensorbroadcast.arrowio.kept.KeptColumn;
import dev.tensorbroadcast.job.base.DatasetException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.dataset.DatasetDirectory;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.source.LoadedSource;
import dev.tensorbroadcast.job.source.SourceLoader;
import dev.tensorbroadcast.planner.DType;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.UserText;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.types.StructType;

/**
 * A complete dataset of ours opened on the driver by its manifest: only the files' footers (or the array's metadata)
 * are read. Its rows are the manifest's, each input partition one part file (one chunk row of a Zarr array), read
 * by the executors through the same readers {@code expand}'s dataset inputs use.
 *
 * @param stored the dataset as the readers see it: its rows may be coarser than the manifest's (a Zarr array's rows
 *     are its first dim's), never finer
 * @param whole a rank-0 array, read whole here; else null
 * @param parts each input partition's manifest rows, in row order
 * @param kept the columns {@code expand} kept next to the tensor, as the manifest lists them
 */
record DatasetRead(
        String location,
        Manifest manifest,
        TensorDataset stored,
        SourceTensor whole,
        List<RowRange> parts,
        List<KeptColumn> kept) {
    /** The Zarr format's name in a manifest: an array has no part files, and its own shape. */
    private static final String ARRAY_FORMAT = "zarr";

    DatasetRead {
        requireNonNull(location, "location is null");
        requireNonNull(manifest, "manifest is null");
        if ((stored == null) == (whole == null)) {
            throw new IllegalArgumentException("a dataset is read from its files or whole");
        }
        parts = List.copyOf(parts);
        kept = List.copyOf(kept);
        if (!kept.isEmpty() && stored == null) {
            throw new IllegalArgumentException("only a dataset's files hold kept columns");
        }
    }

    /** Manifest rows {@code [first, end)}. */
    record RowRange(long first, long end) {
        long count() {
            return end - first;
        }
    }

    /**
     * Opens the dataset at {@code location}; a directory that is not a complete dataset of ours is refused in the
     * line {@code export} refuses it with.
     */
    static DatasetRead open(String location, Configuration conf) {
        Manifest manifest;
        try (DatasetDirectory dir = DatasetDirectory.open(location, conf, "read")) {
            List<String> incomplete = dir.incompleteness();
            if (!incomplete.isEmpty()) {
                throw new DatasetException("Cannot read " + location + ": the dataset is incomplete ("
                        + String.join("; ", incomplete) + "); only a complete dataset can be read");
            }
            manifest = dir.manifest().orElseThrow();
        } catch (IOException e) {
            throw new DatasetException("Cannot read " + location + ": " + Reasons.of(e));
        }
        Shape rowShape = ManifestShapes.shape(manifest.rowShape());
        boolean array = manifest.format().equals(ARRAY_FORMAT);
        ArrowSourceOptions arrow = ArrowSourceOptions.defaults().withColumn(TensorFileSchema.TENSOR_COLUMN);
        // a file's rows are the manifest's; an array's are its first dim's, its shape its own
        LoadedSource loaded = new SourceLoader(
                        conf, SourceLimits.defaults(), arrow, array ? Optional.empty() : Optional.of(rowShape))
                .load(location);
        if (loaded.tensor() != null) {
            return new DatasetRead(
                    location,
                    manifest,
                    null,
                    loaded.tensor(),
                    List.of(new RowRange(0, manifest.rows())),
                    kept(location, manifest, null));
        }
        return new DatasetRead(
                location,
                manifest,
                loaded.dataset(),
                null,
                parts(manifest, loaded.dataset(), array),
                kept(location, manifest, loaded.dataset()));
    }

    /**
     * The manifest's kept columns as the files store them: each read with the files' own type, in the manifest's
     * order.
     */
    private static List<KeptColumn> kept(String location, Manifest manifest, TensorDataset stored) {
        List<KeptColumn> kept = new ArrayList<>();
        for (Manifest.KeptColumnEntry entry : manifest.keptColumns()) {
            Optional<OtherColumn> other = stored == null
                    ? Optional.empty()
                    : stored.others().stream()
                            .filter(column -> column.name().equals(entry.name()))
                            .findFirst();
            if (other.isEmpty() || other.get().keptColumn().isEmpty()) {
                throw new DatasetException("Cannot read " + location + ": its manifest keeps column '"
                        + UserText.shown(entry.name()) + "' (" + entry.type() + "), which its files "
                        + other.map(column -> "hold as " + column.type()).orElse("do not hold")
                        + "; only a dataset as expand wrote it can be read");
            }
            kept.add(other.get().keptColumn().get());
        }
        return kept;
    }

    /**
     * The manifest rows of each part file, or of each run of an array's chunk rows: a unit whose rows end inside a
     * manifest row is joined to the next.
     */
    private static List<RowRange> parts(Manifest manifest, TensorDataset stored, boolean array) {
        long rowElements = ManifestShapes.shape(manifest.rowShape()).elements();
        long storedRowElements = stored.rowShape().elements();
        if (ManifestShapes.shape(manifest.shape()).elements() != stored.shape().elements()) {
            throw new DatasetException("Cannot read " + stored.location() + ": its files hold "
                    + stored.shape().toList() + ", the manifest says " + manifest.shape());
        }
        List<RowRange> parts = new ArrayList<>();
        long first = 0;
        List<Long> ends = new ArrayList<>();
        for (DatasetPart part : stored.parts()) {
            if (array) {
                long end = part.firstRow();
                for (DatasetChunk chunk : part.chunks()) {
                    end += chunk.rows();
                    ends.add(end);
                }
            } else {
                ends.add(part.endRow());
            }
        }
        for (long storedEnd : ends) {
            long endElement = storedEnd * storedRowElements;
            if (rowElements == 0 || endElement % rowElements == 0) {
                long end = rowElements == 0 ? manifest.rows() : endElement / rowElements;
                if (end > first) {
                    parts.add(new RowRange(first, end));
                }
                first = end;
            }
        }
        if (first < manifest.rows()) {
            parts.add(new RowRange(first, manifest.rows()));
        }
        return parts;
    }

    DType dtype() {
        return DType.parse(manifest.dtype());
    }

    Shape rowShape() {
        return ManifestShapes.shape(manifest.rowShape());
    }

    Shape shape() {
        return ManifestShapes.shape(manifest.shape());
    }

    StructType schema() {
        // a dataset's nulls are not told by its manifest: its arrays may hold them
        return KeptSparkTypes.withKept(SparkTypes.schema(dtype(), true, rowShape()), kept);
    }
}
