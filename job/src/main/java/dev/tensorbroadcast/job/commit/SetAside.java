package dev.tensorbroadcast.job.commit;

import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.manifest.Manifest;
import dev.tensorbroadcast.planner.Param;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The dataset {@code --overwrite} replaces, kept in {@link #DIRECTORY} inside the output until the new one is
 * complete: moved there (renames on the output's own file system) when the job starts, deleted when it succeeds, moved
 * back when it fails. It stays inside the output so that the output's lock, which lives there too, covers it.
 * Markers move so that the output never reads as complete with part of a dataset: {@code _SUCCESS}, the index and the
 * manifest go first and come back last. A move is one rename per entry, so a process killed during one leaves the
 * dataset split between the output and {@link #DIRECTORY}; {@link #MOVING}, made there before the first rename and
 * deleted after the last, says so, and the next {@code --overwrite} puts the dataset back together before anything
 * else (without it, that run took the entries still at the top for a stopped run's leftovers and deleted them).
 */
public final class SetAside {
    /** Where the replaced dataset waits; one of our names, so a run stopped meanwhile leaves an output ours. */
    public static final String DIRECTORY = "_tensor-broadcast.previous";

    /**
     * An empty directory in {@link #DIRECTORY} while the dataset moves into it or back out of it: the dataset is split
     * meanwhile. A directory, not a file: making it writes no data, so a full disk cannot stop it halfway.
     */
    public static final String MOVING = "_tensor-broadcast.moving";

    private static final List<String> MARKERS =
            List.of(Manifest.SUCCESS_FILE_NAME, DatasetIndex.FILE_NAME, Manifest.FILE_NAME);

    private final String text;
    private final FileSystem fileSystem;
    private final Path output;
    private final boolean holding;

    private SetAside(String text, FileSystem fileSystem, Path output, boolean holding) {
        this.text = text;
        this.fileSystem = fileSystem;
        this.output = output;
        this.holding = holding;
    }

    /** Nothing to keep: a new output, or an empty one. */
    static SetAside nothing(String text, FileSystem fileSystem, Path output) {
        return new SetAside(text, fileSystem, output, false);
    }

    /**
     * Moves every entry of {@code output} but the lock aside. The caller holds the lock and has checked that every
     * entry is ours. A {@link #DIRECTORY} left by a run that was stopped is kept as the dataset to restore when what is
     * beside it is incomplete (that run's leftovers, deleted), and deleted when it is complete (that run finished).
     */
    static SetAside of(String text, FileSystem fileSystem, Path output) {
        Path aside = new Path(output, DIRECTORY);
        try {
            if (fileSystem.exists(new Path(aside, MOVING))) {
                // a run was killed while it moved the dataset aside or back: everything there is the old dataset's
                moveBack(fileSystem, aside, output);
            }
            if (fileSystem.exists(aside)) {
                if (!fileSystem.exists(new Path(output, Manifest.SUCCESS_FILE_NAME))
                        && !fileSystem.exists(new Path(output, DatasetIndex.FILE_NAME))) {
                    deleteEntries(fileSystem, output);
                    return new SetAside(text, fileSystem, output, true);
                }
                fileSystem.delete(aside, true);
            }
            List<FileStatus> entries = entries(fileSystem, output);
            if (entries.isEmpty()) {
                return nothing(text, fileSystem, output);
            }
            fileSystem.mkdirs(aside);
            try {
                startMoving(fileSystem, aside);
            } catch (IOException e) {
                // nothing moved yet: the directory just made is all there is of this set-aside
                try {
                    fileSystem.delete(aside, false);
                } catch (IOException cleanup) {
                    e.addSuppressed(cleanup);
                }
                throw e;
            }
            entries.sort(Comparator.comparingInt(SetAside::markerRank));
            for (int i = 0; i < entries.size(); i++) {
                Path entry = entries.get(i).getPath();
                move(fileSystem, entry, new Path(aside, entry.getName()));
                if (i == 0) {
                    FaultPoint.OVERWRITE_MOVING_ASIDE.reach(null);
                }
            }
            fileSystem.delete(new Path(aside, MOVING), false);
            FaultPoint.OVERWRITE_SET_ASIDE.reach(null);
            return new SetAside(text, fileSystem, output, true);
        } catch (IOException e) {
            throw new OutputException("Cannot set the dataset in '" + text + "' aside for " + Param.OVERWRITE.named()
                    + ": " + e.getMessage());
        }
    }

    /** The new dataset is complete: the old one goes. What cannot be deleted now, the next --overwrite deletes. */
    public void discard() {
        if (!holding) {
            return;
        }
        try {
            fileSystem.delete(new Path(output, DIRECTORY), true);
        } catch (IOException e) {
            // the new dataset beside it is complete, and a later --overwrite deletes it
        }
    }

    /**
     * The job failed: its leftovers go and the old dataset comes back where it was. A failure here is added to
     * {@code failure}, and the old dataset stays in {@link #DIRECTORY}.
     */
    public void restore(Throwable failure) {
        if (!holding) {
            return;
        }
        Path aside = new Path(output, DIRECTORY);
        try {
            deleteEntries(fileSystem, output);
            startMoving(fileSystem, aside);
            moveBack(fileSystem, aside, output);
            failure.addSuppressed(new Restored(text));
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(new IOException(
                    "Cannot move the replaced dataset back from " + aside + " into '" + text + "': " + e.getMessage(),
                    e));
        }
    }

    /**
     * Says, on the failure {@link #restore} was given, that the replaced dataset is back where it was: the message
     * of an interrupted {@code --overwrite} says so. No stack trace: it is a fact about the output, not an error.
     */
    public static final class Restored extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Restored(String output) {
            super("the dataset that was in '" + output + "' is back as it was", null, false, false);
        }
    }

    private static void startMoving(FileSystem fileSystem, Path aside) throws IOException {
        Path moving = new Path(aside, MOVING);
        if (!fileSystem.mkdirs(moving)) {
            throw new IOException("cannot make " + moving);
        }
    }

    /**
     * Moves the dataset in {@code aside} back into {@code output}, markers last, then deletes {@code aside}. The
     * caller has made {@link #MOVING} there, or found it: nothing at the top is a stopped run's leftover then.
     */
    private static void moveBack(FileSystem fileSystem, Path aside, Path output) throws IOException {
        List<FileStatus> entries = entries(fileSystem, aside);
        entries.sort(Comparator.comparingInt(SetAside::markerRank).reversed());
        boolean halfway = false;
        for (FileStatus entry : entries) {
            if (!halfway && markerRank(entry) < MARKERS.size()) {
                // every part file is back, no marker yet
                FaultPoint.OVERWRITE_MOVING_BACK.reach(null);
                halfway = true;
            }
            move(fileSystem, entry.getPath(), new Path(output, entry.getPath().getName()));
        }
        fileSystem.delete(new Path(aside, MOVING), false);
        fileSystem.delete(aside, false);
    }

    /** The markers first (in {@link #MARKERS}' order), then the rest. */
    private static int markerRank(FileStatus entry) {
        int rank = MARKERS.indexOf(entry.getPath().getName());
        return rank < 0 ? MARKERS.size() : rank;
    }

    /** Every entry of {@code directory} but the lock and the set-aside dataset. */
    private static List<FileStatus> entries(FileSystem fileSystem, Path directory) throws IOException {
        List<FileStatus> entries = new ArrayList<>();
        for (FileStatus child : fileSystem.listStatus(directory)) {
            String name = child.getPath().getName();
            if (!OutputLock.isLockName(name) && !name.equals(DIRECTORY) && !name.equals(MOVING)) {
                entries.add(child);
            }
        }
        return entries;
    }

    /** A failed or stopped run's files beside the set-aside dataset: only our names, all written under our lock. */
    private static void deleteEntries(FileSystem fileSystem, Path output) throws IOException {
        List<FileStatus> entries = entries(fileSystem, output);
        entries.sort(Comparator.comparingInt(SetAside::markerRank));
        for (FileStatus entry : entries) {
            if (OutputDirectory.isOurName(entry.getPath().getName())) {
                fileSystem.delete(entry.getPath(), true);
            }
        }
    }

    private static void move(FileSystem fileSystem, Path from, Path to) throws IOException {
        if (!fileSystem.rename(from, to)) {
            throw new IOException("cannot rename " + from + " to " + to);
        }
    }
}
