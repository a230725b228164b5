package dev.tensorbroadcast.job.cli;

import dev.tensorbroadcast.job.commit.CommitRecord;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What a faulted run left at its output, as the oracle classifies it by the files' checksums against a clean run's
 * new dataset and the old one. The first three are the invariant itself; the next seven are what
 * docs/reliability.md and docs/storage.md say a process killed without its clean-up leaves (its lock, its staging,
 * an overwrite's old dataset set aside in {@code _tensor-broadcast.previous}), which {@code inspect} calls incomplete
 * and a rerun repairs; anything else breaks the invariant.
 */
enum SoakOutcome {
    /** The new dataset, every file byte for byte a clean run's, and nothing else. */
    NEW,
    /** The old dataset as it was, and nothing else. */
    OLD,
    /** Nothing, where there was nothing. */
    NOTHING,
    /**
     * The new dataset complete, and the dead run's lock; on S3 maybe its commit record too, when the run died between
     * {@code _SUCCESS} and deleting the record (docs/reliability.md, {@code commit.success-written}).
     */
    NEW_AND_LOCK,
    /** The new dataset complete, the old one still set aside (killed before deleting it), maybe the lock. */
    NEW_AND_OLD_SET_ASIDE,
    /** The old dataset as it was, and the dead run's lock and staging (S3: nothing is set aside there). */
    OLD_AND_LEFTOVERS,
    /** The old dataset whole in {@code _tensor-broadcast.previous}, the dead run's files of ours at the top. */
    OLD_SET_ASIDE,
    /**
     * The old dataset's files all there, split between the top and {@code _tensor-broadcast.previous}, which holds
     * {@code _tensor-broadcast.moving}: a run killed while it moved the dataset aside or back (docs/reliability.md);
     * inspect names {@code --overwrite}, whose run puts it back together first.
     */
    OLD_SPLIT,
    /** No old dataset, and the dead run's files of ours without {@code _SUCCESS}, which inspect calls incomplete. */
    LEFTOVERS,
    /**
     * A commit stopped after its record ({@code _tensor-broadcast.commit}, S3): the uploads of the new dataset
     * recorded, the markers not yet written. docs/reliability.md's "A fault in the commit": {@code inspect} calls it
     * incomplete and names {@code --overwrite}, whose run finishes that commit first.
     */
    STOPPED_COMMIT,
    /**
     * The old dataset's part files without its manifest and {@code _SUCCESS}: what docs/storage.md says a failure
     * in the S3 overwrite's commit window leaves (the markers are deleted as the commit starts). It breaks the
     * invariant (issue 40 asks to close that window); the slice does not fail on it unless {@code -Dsoak.strict}.
     */
    OLD_WITHOUT_MARKERS,
    /** Anything else: a mix, a lost old dataset, a foreign name. */
    BROKEN;

    /** The names a run of ours leaves at the top of its output when it dies before its commit ends. */
    private static final Pattern OURS = Pattern.compile("part-\\d+\\.(arrow|parquet)|_temporary(/.*)?|__magic.*|"
            + Pattern.quote(SoakListing.LOCK) + "(\\.[0-9a-f]{16}\\.staged)?|" + Pattern.quote(SoakListing.MANIFEST)
            + "\\.staged");

    private static final Set<SoakOutcome> INVARIANT = Set.of(NEW, OLD, NOTHING);

    /** Whether a run ended by {@code fault} on {@code store} may leave this. */
    boolean allowedAfter(SoakFault fault, SoakStore.Kind store) {
        if (this == BROKEN || this == OLD_WITHOUT_MARKERS) {
            return false;
        }
        if (INVARIANT.contains(this) || fault.killsWithoutCleanUp()) {
            return true;
        }
        // docs/reliability.md: a full disk leaves only names of ours, or the old dataset moved back
        if (fault == SoakFault.DISK_FULL && this == LEFTOVERS) {
            return true;
        }
        // docs/reliability.md: on HDFS a signal may close the file system before the old dataset is moved back
        return this == OLD_SET_ASIDE
                && store == SoakStore.Kind.HDFS
                && (fault == SoakFault.DRIVER_INT || fault == SoakFault.DRIVER_TERM);
    }

    /** Whether {@code inspect} must call the output complete. */
    boolean complete() {
        return this == NEW || this == OLD;
    }

    static SoakOutcome classify(SoakListing found, SoakListing created, SoakListing old) {
        if (found.sameFiles(created)) {
            return NEW;
        }
        if (!old.isEmpty() && found.sameFiles(old)) {
            return OLD;
        }
        if (found.isEmpty()) {
            return old.isEmpty() ? NOTHING : BROKEN;
        }
        if (found.has(CommitRecord.FILE_NAME) && !found.has(SoakListing.SUCCESS)) {
            return STOPPED_COMMIT;
        }
        SoakListing unlocked = found.without(SoakListing.LOCK);
        if (unlocked.sameFiles(created)
                || (found.has(SoakListing.SUCCESS)
                        && unlocked.without(CommitRecord.FILE_NAME).sameFiles(created))) {
            return NEW_AND_LOCK;
        }
        String aside = SoakListing.PREVIOUS + "/";
        SoakListing top = unlocked.without(aside);
        if (!old.isEmpty() && top.sameFiles(created) && found.under(aside).sameFiles(old)) {
            return NEW_AND_OLD_SET_ASIDE;
        }
        if (!old.isEmpty() && containsAll(found, old) && onlyStaging(minus(found, old))) {
            return OLD_AND_LEFTOVERS;
        }
        if (!old.isEmpty()
                && !found.has(SoakListing.SUCCESS)
                && !found.has(SoakListing.MANIFEST)
                && containsAll(found, old.without(SoakListing.SUCCESS).without(SoakListing.MANIFEST))
                && onlyStaging(minus(found, old))) {
            return OLD_WITHOUT_MARKERS;
        }
        if (!old.isEmpty() && found.under(aside).sameFiles(old) && onlyOurs(found.without(aside))) {
            return OLD_SET_ASIDE;
        }
        if (!old.isEmpty() && found.has(aside + SoakListing.MOVING) && isSplit(found, old, aside)) {
            return OLD_SPLIT;
        }
        if (old.isEmpty()
                && !found.has(SoakListing.SUCCESS)
                && found.files().keySet().stream()
                        .allMatch(path -> path.equals(SoakListing.MANIFEST)
                                || OURS.matcher(path).matches())) {
            return LEFTOVERS;
        }
        return BROKEN;
    }

    /** Every old file once, at the top or aside, with its checksum; besides them only the lock and the move's file. */
    private static boolean isSplit(SoakListing found, SoakListing old, String aside) {
        TreeMap<String, Long> rest = new TreeMap<>(found.files());
        for (var entry : old.files().entrySet()) {
            Long top = rest.remove(entry.getKey());
            Long moved = rest.remove(aside + entry.getKey());
            if ((top == null) == (moved == null) || !entry.getValue().equals(top != null ? top : moved)) {
                return false;
            }
        }
        rest.remove(aside + SoakListing.MOVING);
        return rest.keySet().stream().allMatch(path -> OURS.matcher(path).matches() && !path.startsWith("part-"));
    }

    private static boolean onlyOurs(SoakListing listing) {
        return listing.files().keySet().stream()
                .allMatch(path -> OURS.matcher(path).matches());
    }

    /** Our names that no reader takes for the dataset's: no part file. */
    private static boolean onlyStaging(SoakListing listing) {
        return listing.files().keySet().stream()
                .allMatch(path -> OURS.matcher(path).matches() && !path.startsWith("part-"));
    }

    private static boolean containsAll(SoakListing found, SoakListing old) {
        return old.files().entrySet().stream()
                .allMatch(entry -> entry.getValue().equals(found.files().get(entry.getKey())));
    }

    private static SoakListing minus(SoakListing found, SoakListing old) {
        TreeMap<String, Long> rest = new TreeMap<>(found.files());
        old.files().forEach((path, crc) -> rest.remove(path, crc));
        return new SoakListing(rest, Set.of());
    }
}
