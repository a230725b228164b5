package dev.tensorbroadcast.job.source;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.format.TensorDataset;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowParts;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowSourceOptions;
import dev.tensorbroadcast.arrowio.format.arrow.ArrowSourceReader;
import dev.tensorbroadcast.arrowio.format.npy.NpyLayout;
import dev.tensorbroadcast.arrowio.format.npy.NpyReader;
import dev.tensorbroadcast.arrowio.format.parquet.ParquetFormat;
import dev.tensorbroadcast.arrowio.source.ArraySources;
import dev.tensorbroadcast.arrowio.source.DatasetOptions;
import dev.tensorbroadcast.arrowio.source.TensorDatasets;
import dev.tensorbroadcast.job.base.InputException;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.store.Locations;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.UserText;
import java.io.BufferedInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;

/**
 * Reads a source tensor from any Hadoop file system on the driver, or opens a directory (or one Parquet file) as a
 * dataset. The format is told by the first bytes, never by the name: {@code \x93NUMPY} is a {@code .npy} file,
 * {@code PAR1} a Parquet file, anything else is read as Arrow IPC (file or stream), whose reader names what it
 * expected when the bytes are neither. A Parquet file, an Arrow IPC stream of rows and an Arrow IPC file of lists are
 * datasets of one file.
 */
public final class SourceLoader {
    /** One Parquet file is a dataset of one file; its format entry says how it starts. */
    private static final byte[] PARQUET_MAGIC = new ParquetFormat().magic();

    private final Configuration conf;
    private final SourceLimits limits;
    private final ArrowSourceOptions arrowOptions;
    private final Optional<Shape> rowShape;
    private final boolean rowShapeForDatasetsOnly;

    public SourceLoader(Configuration conf, SourceLimits limits, ArrowSourceOptions arrowOptions) {
        this(conf, limits, arrowOptions, Optional.empty());
    }

    /** {@code rowShape} shapes the rows of a dataset directory's list column ({@code --row-shape}). */
    public SourceLoader(
            Configuration conf, SourceLimits limits, ArrowSourceOptions arrowOptions, Optional<Shape> rowShape) {
        this(conf, limits, arrowOptions, rowShape, false);
    }

    private SourceLoader(
            Configuration conf,
            SourceLimits limits,
            ArrowSourceOptions arrowOptions,
            Optional<Shape> rowShape,
            boolean rowShapeForDatasetsOnly) {
        this.rowShapeForDatasetsOnly = rowShapeForDatasetsOnly;
        this.conf = requireNonNull(conf, "conf is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.arrowOptions = requireNonNull(arrowOptions, "arrowOptions is null");
        this.rowShape = requireNonNull(rowShape, "rowShape is null");
    }

    /**
     * This loader with {@code --row-shape} applied to dataset inputs only, for several inputs of which some may be
     * {@code .npy} files; the caller refuses it when none is a dataset ({@link #rowShapeOnNpy}).
     */
    public SourceLoader rowShapeForDatasetsOnly() {
        return new SourceLoader(conf, limits, arrowOptions, rowShape, true);
    }

    /** The refusal of {@code --row-shape} for a {@code .npy} input, whose header gives its shape. */
    public static InvalidRequestException rowShapeOnNpy(Shape rowShape, String location) {
        String given = Param.ROW_SHAPE.given(
                "Shape.parse(\"" + rowShape.toList() + "\")", rowShape.toList().toString());
        return new InvalidRequestException("Cannot use " + given + " with input '" + location + "': it is a .npy,"
                + " whose header gives its shape; " + Param.ROW_SHAPE.named() + " shapes the rows of a dataset"
                + " directory's list column");
    }

    /** A loader with the default heap limit that picks the Arrow column by itself. */
    public static SourceLoader defaults(Configuration conf) {
        return new SourceLoader(conf, SourceLimits.defaults(), ArrowSourceOptions.defaults());
    }

    /**
     * A file read onto the heap, or a directory of Arrow IPC or Parquet files opened as a dataset (footers only; see
     * {@link TensorDatasets}).
     */
    public LoadedSource load(String location) {
        Locations.Located input = Locations.locate("input", location, conf);
        FileStatus status = status(location, input);
        if (status.isDirectory()) {
            return arrayOrDataset(location, input);
        }
        try (InputStream raw = input.fileSystem().open(input.path());
                BufferedInputStream in = new BufferedInputStream(raw, 1 << 16)) {
            // one Parquet file is a dataset of one file (Hadoop lists a file as itself), and so is an Arrow IPC
            // stream of rows, or an Arrow IPC file of lists (ArrowParts.readAsDataset)
            boolean dataset = startsWith(in, PARQUET_MAGIC)
                    || (!startsWith(in, NpyReader.magic())
                            && ArrowParts.readAsDataset(
                                    input.fileSystem(), input.path(), status.getLen(), arrowOptions.column()));
            return dataset
                    ? LoadedSource.of(dataset(location, input))
                    : LoadedSource.of(readFile(location, status, in));
        } catch (IOException e) {
            throw new InputException("Cannot read input '" + location + "': " + Reasons.of(e));
        }
    }

    /**
     * A reduce's gradient: a dataset directory (or one Parquet file) is opened for the tasks to read; a {@code .npy}
     * of fixed-width numbers in C order larger than {@code shipThreshold} bytes is left in its file, whose rows the
     * tasks read by offset; anything else is read onto the heap, to be shipped. The file is opened once.
     */
    public Gradient gradient(String location, long shipThreshold) {
        Locations.Located input = Locations.locate("input", location, conf);
        FileStatus status = status(location, input);
        if (status.isDirectory()) {
            LoadedSource loaded = arrayOrDataset(location, input);
            return loaded.dataset() != null
                    ? new Gradient.Stored(loaded.dataset())
                    : new Gradient.InMemory(loaded.tensor());
        }
        try (InputStream raw = input.fileSystem().open(input.path());
                BufferedInputStream in = new BufferedInputStream(raw, 1 << 16)) {
            if (startsWith(in, PARQUET_MAGIC)) {
                return new Gradient.Stored(dataset(location, input));
            }
            if (status.getLen() <= shipThreshold || !startsWith(in, NpyReader.magic())) {
                return new Gradient.InMemory(readFile(location, status, in));
            }
            // a large .npy: only its header is read here
            Optional<NpyLayout> layout = NpyReader.layout(location, in, status.getLen());
            if (layout.isPresent()) {
                return new Gradient.NpyFile(input.path().toString(), layout.get());
            }
        } catch (IOException e) {
            throw new InputException("Cannot read input '" + location + "': " + Reasons.of(e));
        }
        // bool, strings or Fortran order: converted whole, on the heap
        return new Gradient.InMemory(read(location));
    }

    public SourceTensor read(String location) {
        Locations.Located input = Locations.locate("input", location, conf);
        FileStatus status = status(location, input);
        if (status.isDirectory()) {
            throw new InputException(
                    "Cannot read input '" + location + "': it is a directory; give a .npy or Arrow" + " IPC file");
        }
        try (InputStream raw = input.fileSystem().open(input.path());
                BufferedInputStream in = new BufferedInputStream(raw, 1 << 16)) {
            return readFile(location, status, in);
        } catch (IOException e) {
            throw new InputException("Cannot read input '" + location + "': " + Reasons.of(e));
        }
    }

    /** A .npy or Arrow IPC file from its opened stream, told apart by its first bytes. */
    private SourceTensor readFile(String location, FileStatus status, BufferedInputStream in) throws IOException {
        if (startsWith(in, NpyReader.magic())) {
            if (rowShape.isPresent() && !rowShapeForDatasetsOnly) {
                throw rowShapeOnNpy(rowShape.get(), location);
            }
            return new NpyReader(limits).read(location, in, status.getLen());
        }
        return new ArrowSourceReader(limits).read(location, in, status.getLen(), arrowOptions);
    }

    /**
     * A Zarr array (its metadata in the directory) opened as a dataset of its first dim's rows, read by the tasks in
     * slices (a scalar one read whole onto the heap), or a dataset of files opened.
     */
    private LoadedSource arrayOrDataset(String location, Locations.Located input) {
        try {
            Optional<ArrayFileFormat> array = ArraySources.formatOf(input.fileSystem(), input.path());
            if (array.isEmpty()) {
                return LoadedSource.of(dataset(location, input));
            }
            if (rowShape.isPresent()) {
                throw new InvalidRequestException("Cannot use " + Param.ROW_SHAPE.named() + " with input '"
                        + UserText.shown(location) + "': it is a " + array.get().description()
                        + " array, whose shape is its own; drop " + Param.ROW_SHAPE.named());
            }
            if (ArraySources.rank(array.get(), input.fileSystem(), input.path()) == 0) {
                return LoadedSource.of(
                        ArraySources.read(array.get(), input.fileSystem(), input.path(), location, limits));
            }
            return LoadedSource.of(ArraySources.dataset(array.get(), input.fileSystem(), input.path(), location));
        } catch (IOException e) {
            throw new InputException("Cannot read input '" + location + "': " + Reasons.of(e));
        }
    }

    private TensorDataset dataset(String location, Locations.Located input) {
        try {
            return TensorDatasets.open(
                    input.fileSystem(), input.path(), location, new DatasetOptions(arrowOptions.column(), rowShape));
        } catch (IOException e) {
            throw new InputException("Cannot read input '" + location + "': " + Reasons.of(e));
        }
    }

    /** Whether the stream starts with {@code magic}; the stream is left where it was. */
    private static boolean startsWith(BufferedInputStream in, byte[] magic) throws IOException {
        in.mark(magic.length);
        byte[] head = in.readNBytes(magic.length);
        in.reset();
        return Arrays.equals(head, magic);
    }

    private static FileStatus status(String location, Locations.Located input) {
        try {
            return input.fileSystem().getFileStatus(input.path());
        } catch (FileNotFoundException e) {
            throw new InputException("Cannot read input '" + location + "': no such file or directory; give a .npy"
                    + ", Arrow IPC or Parquet file, or a directory of Arrow IPC or Parquet files");
        } catch (IOException e) {
            throw new InputException("Cannot read input '" + location + "': " + Reasons.of(e));
        }
    }
}
