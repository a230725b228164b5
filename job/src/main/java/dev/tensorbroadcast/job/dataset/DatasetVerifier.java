package dev.tensorbroadcast.job.dataset;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.ArrayFileFormat;
import dev.tensorbroadcast.arrowio.format.DatasetFileReader;
import dev.tensorbroadcast.arrowio.format.ElementBatch;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.job.base.Crc32c;
import dev.tensorbroadcast.job.base.DatasetException;
import dev.tensorbroadcast.job.base.Progress;
import dev.tensorbroadcast.job.base.Reasons;
import dev.tensorbroadcast.job.manifest.DatasetFile;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.job.manifest.ManifestRequests;
import dev.tensorbroadcast.job.manifest.ManifestShapes;
import dev.tensorbroadcast.job.sink.PartFileNames;
import dev.tensorbroadcast.planner.BroadcastPlan;
import dev.tensorbroadcast.planner.Param;
import dev.tensorbroadcast.planner.Shape;
import dev.tensorbroadcast.planner.TensorSpec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * Checks a dataset against its manifest: every listed file exists with its size and CRC-32C, no unlisted
 * {@code part-*} file exists, and with a source, every value of every file is what the planner's copy program takes
 * from the source. Files are read in batches, so memory is bounded by a batch whatever the dataset's size.
 */
public final class DatasetVerifier {
    /** Value differences listed one by one; the rest are counted. */
    public static final int MAX_LISTED_DIFFERENCES = 10;

    /** What the progress line is told the comparison is: its verb is {@code checked}. */
    public static final String VERIFY_DESCRIPTION = "verify";

    private final DatasetDirectory dir;

    public DatasetVerifier(DatasetDirectory dir) {
        this.dir = requireNonNull(dir, "dir is null");
    }

    public VerifyReport verify(Optional<SourceTensor> source) throws IOException {
        return verify(source, Progress.NONE);
    }

    /**
     * As {@link #verify(Optional)}, telling {@code progress} how far the comparison with the source is: one
     * partition a file, and the bytes of values compared.
     */
    public VerifyReport verify(Optional<SourceTensor> source, Progress progress) throws IOException {
        List<String> problems = new ArrayList<>();
        Optional<Manifest> found = dir.manifest();
        if (found.isEmpty()) {
            problems.add("no " + Manifest.FILE_NAME + ": the dataset is incomplete, so nothing can be checked");
            return new VerifyReport(problems, 0, 0, OptionalLong.empty());
        }
        Manifest manifest = found.get();
        TensorKernel kernel = source.isPresent() ? kernel(manifest, source.get()) : null;
        if (!dir.hasSuccess()) {
            problems.add("no " + Manifest.SUCCESS_FILE_NAME + ": the job did not finish");
        }
        List<DatasetFile> readable = new ArrayList<>();
        long bytes = 0;
        for (DatasetFile file : manifest.files()) {
            Optional<Long> size = dir.size(file.path());
            if (size.isEmpty()) {
                problems.add(file.path() + ": missing");
                continue;
            }
            if (size.get() < file.bytes()) {
                problems.add(file.path() + ": truncated: " + size.get() + " bytes, the manifest says " + file.bytes());
                continue;
            }
            if (size.get() > file.bytes()) {
                problems.add(file.path() + ": " + size.get() + " bytes, the manifest says " + file.bytes());
                continue;
            }
            bytes += size.get();
            String crc = Crc32c.of(dir.fileSystem(), dir.resolve(file.path()));
            if (!crc.equals(file.crc32c())) {
                problems.add(
                        file.path() + ": checksum mismatch: crc32c " + crc + ", the manifest says " + file.crc32c());
            }
            readable.add(file);
        }
        Set<String> listed = new HashSet<>();
        manifest.files().forEach(file -> listed.add(file.path()));
        for (Map.Entry<String, Long> entry : dir.entries().entrySet()) {
            if (entry.getKey().startsWith(Manifest.PART_PREFIX) && !listed.contains(entry.getKey())) {
                problems.add(entry.getKey() + ": extra file, not listed in the manifest");
            }
            if (entry.getValue() < 0
                    && entry.getKey().indexOf('=') > 0
                    && !entry.getKey().startsWith("_")) {
                // a partitioned dataset's key=value directory (--partition-by): its part files are listed too
                extraPartFiles(dir.resolve(entry.getKey()), entry.getKey() + "/", listed, problems);
            }
        }
        OptionalLong compared = OptionalLong.empty();
        Optional<ArrayFileFormat> array = TensorFileFormats.arrayFormats().stream()
                .filter(format -> format.name().equals(manifest.format()))
                .findFirst();
        if (array.isPresent()) {
            // an array's manifest lists every object written; a chunk of the fill value is absent, so an object
            // it does not list is one this job did not write, with values no checksum covers
            extraChunks(dir.resolve(PartFileNames.CHUNK_DIRECTORY), PartFileNames.CHUNK_DIRECTORY, listed, problems);
        }
        if (kernel != null && array.isPresent()) {
            compared = OptionalLong.of(
                    new ArrayValues(dir, array.get(), kernel, MAX_LISTED_DIFFERENCES).compare(problems, progress));
        } else if (kernel != null) {
            compared = OptionalLong.of(compareValues(manifest, kernel, readable, problems, progress));
        }
        return new VerifyReport(problems, manifest.files().size(), bytes, compared);
    }

    private void extraChunks(org.apache.hadoop.fs.Path path, String key, Set<String> listed, List<String> problems)
            throws IOException {
        if (!dir.fileSystem().exists(path)) {
            return;
        }
        if (!dir.fileSystem().getFileStatus(path).isDirectory()) {
            if (!listed.contains(key)) {
                problems.add(key + ": extra chunk object, not listed in the manifest");
            }
            return;
        }
        org.apache.hadoop.fs.FileStatus[] children;
        try {
            children = dir.fileSystem().listStatus(path);
        } catch (java.io.FileNotFoundException e) {
            // an object store's emptied prefix, still listed as a directory above it
            return;
        }
        for (org.apache.hadoop.fs.FileStatus status : children) {
            extraChunks(status.getPath(), key + "/" + status.getPath().getName(), listed, problems);
        }
    }

    private void extraPartFiles(
            org.apache.hadoop.fs.Path directory, String relative, Set<String> listed, List<String> problems)
            throws IOException {
        for (org.apache.hadoop.fs.FileStatus status : dir.fileSystem().listStatus(directory)) {
            String name = relative + status.getPath().getName();
            if (status.isDirectory()) {
                extraPartFiles(status.getPath(), name + "/", listed, problems);
            } else if (status.getPath().getName().startsWith(Manifest.PART_PREFIX) && !listed.contains(name)) {
                problems.add(name + ": extra file, not listed in the manifest");
            }
        }
    }

    private TensorKernel kernel(Manifest manifest, SourceTensor source) {
        if (ManifestRequests.REDUCE.equals(manifest.request().get(ManifestRequests.OPERATION))) {
            throw new DatasetException("Cannot verify " + dir.name() + " against a source: it is the result of"
                    + " reduce, a sum of its gradient, not a broadcast of a source; verify it without "
                    + Param.SOURCE.named());
        }
        BroadcastPlan plan = ManifestRequests.toRequest(manifest).plan();
        int input = ManifestRequests.inputIndex(manifest);
        Shape shape = ManifestShapes.shape(manifest.shape());
        if (!plan.output().equals(shape)) {
            throw new DatasetException("Cannot verify " + dir.name() + " against its source: the manifest's request"
                    + " gives shape " + plan.output() + " but the manifest says " + shape);
        }
        TensorSpec made = plan.request().input(input);
        if (!made.shape().equals(source.shape()) || made.dtype() != source.dtype()) {
            throw new DatasetException("Cannot verify " + dir.name() + " against this source: it is "
                    + source.dtype() + " " + source.shape() + " but the dataset was made from " + made.dtype() + " "
                    + made.shape() + " (" + manifest.inputs().get(input).path() + ")");
        }
        return TensorKernel.of(source, plan.copyProgram(input));
    }

    private long compareValues(
            Manifest manifest, TensorKernel kernel, List<DatasetFile> files, List<String> problems, Progress progress)
            throws IOException {
        long rowElements = ManifestShapes.shape(manifest.rowShape()).elements();
        ValueComparison comparison = new ValueComparison(rowElements, MAX_LISTED_DIFFERENCES);
        boolean expectNulls = kernel.source().hasNulls();
        double bytesPerValue = manifest.elements() == 0 ? 0 : (double) manifest.bytes() / manifest.elements();
        progress.started(VERIFY_DESCRIPTION, files.size(), manifest.bytes());
        int filesDone = 0;
        try (BufferAllocator allocator = new RootAllocator();
                ElementBatch expected = new ElementBatch(allocator, kernel.dtype())) {
            for (DatasetFile file : files) {
                long before = comparison.differences();
                int listedBefore = comparison.listed().size();
                try (DatasetFileReader reader = DatasetFiles.open(dir, manifest, file, allocator)) {
                    for (ElementBatch batch = reader.next(); batch != null; batch = reader.next()) {
                        ExpectedValues.fill(kernel, batch.firstRow(), batch.rows(), rowElements, expected);
                        comparison.compare(file.path(), expected, batch, expectNulls);
                        progress.advanced(filesDone, (long) (comparison.compared() * bytesPerValue));
                    }
                } catch (IOException | RuntimeException e) {
                    if (e instanceof DatasetException refused) {
                        throw refused;
                    }
                    problems.add(file.path() + ": cannot read: " + Reasons.of(e));
                }
                problems.addAll(comparison
                        .listed()
                        .subList(listedBefore, comparison.listed().size()));
                long differences = comparison.differences() - before;
                if (differences > 0) {
                    problems.add(file.path() + ": " + differences
                            + (differences == 1 ? " value differs" : " values differ") + " from the source");
                }
                filesDone++;
                progress.advanced(filesDone, (long) (comparison.compared() * bytesPerValue));
            }
        } finally {
            progress.finished();
        }
        return comparison.compared();
    }
}
