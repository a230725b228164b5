package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.arrowio.format.TensorFileFormat;
import dev.tensorbroadcast.arrowio.source.TensorFileFormats;
import dev.tensorbroadcast.job.OutputFormat;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * {@code --format}'s list of formats in its help, from the registry ({@link OutputFormat#values},
 * {@link OutputFormat#results}), each with its note ({@link TensorFileFormat#helpNote}): a new format shows up
 * without an edit here. Picocli puts the one phrase each class gives where a description says
 * {@code ${COMPLETION-CANDIDATES}}.
 */
final class FormatHelp {
    private FormatHelp() {}

    /** What {@code expand} and {@code broadcast-tensors} write: "arrow (Arrow IPC files, default), parquet, ...". */
    static final class Datasets implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of(String.join(", ", named(OutputFormat.values(), true)))
                    .iterator();
        }
    }

    /** What {@code reduce} writes: "npy, arrow (Arrow IPC files), parquet or zarr (one Zarr v3 array)". */
    static final class Results implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> named = named(OutputFormat.results(), false);
            return List.of(
                            named.size() == 1
                                    ? named.get(0)
                                    : String.join(", ", named.subList(0, named.size() - 1)) + " or "
                                            + named.get(named.size() - 1))
                    .iterator();
        }
    }

    /** Each format's name with its note, and with {@code sayDefault} that arrow is the default. */
    private static List<String> named(List<OutputFormat> formats, boolean sayDefault) {
        List<String> named = new ArrayList<>();
        for (OutputFormat format : formats) {
            List<String> notes = new ArrayList<>();
            TensorFileFormats.byName(format.formatName())
                    .flatMap(TensorFileFormat::helpNote)
                    .ifPresent(notes::add);
            if (sayDefault && format.equals(OutputFormat.ARROW)) {
                notes.add("default");
            }
            named.add(
                    notes.isEmpty()
                            ? format.formatName()
                            : format.formatName() + " (" + String.join(", ", notes) + ")");
        }
        return named;
    }
}
