package dev.tensorbroadcast.job.commit;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.base.OutputException;
import dev.tensorbroadcast.job.store.Locations;
import dev.tensorbroadcast.job.store.Stores;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * An output may not be, hold, or lie inside one of the job's inputs: the job reads its input while it writes, and
 * {@code --overwrite} moves what is at the output aside before it does, so writing a dataset into itself took away
 * what the tasks were about to read (before the old dataset was kept aside, it deleted it). Locations are compared as
 * the files they name: qualified Hadoop paths ({@code file:}, a bare path and {@code ..} all come to one form), and on
 * the local file system the real path, every symbolic link resolved (the part of a path that does not exist yet is
 * taken as written below its nearest existing directory).
 */
public final class OutputOverlap {
    private OutputOverlap() {}

    /** Refuses {@code output} when it overlaps one of {@code inputs}, all locations as the user typed them. */
    public static void requireApart(String output, List<String> inputs, Configuration conf) {
        requireApart(output, Locations.locate(Locations.OUTPUT, output, conf).path(), inputs, conf);
    }

    /** As above, for an output whose place is not the one its text names on the default file system. */
    public static void requireApart(String output, Path qualified, List<String> inputs, Configuration conf) {
        requireNonNull(inputs, "inputs is null");
        for (String input : inputs) {
            requireApart(
                    output,
                    qualified,
                    input,
                    Locations.locate("input", input, conf).path());
        }
    }

    /** Refuses {@code output} when it overlaps {@code input}: each as typed, with its qualified path. */
    public static void requireApart(String output, Path outputPath, String input, Path inputPath) {
        String out = resolved(outputPath);
        String in = resolved(inputPath);
        String relation = relation(out, in, Stores.forPath(inputPath).isFile(in));
        if (relation != null) {
            String where = relation.equals("is")
                    ? "both " + out
                    : relation.equals("holds") ? in + " inside " + out : out + " inside " + in;
            throw new OutputException("Cannot write to '" + output + "': it " + relation + " the input '" + input
                    + "' (" + where + "), and a job must not write where it reads; write to a path outside every"
                    + " input, then move the result where you want it");
        }
    }

    /** {@code is}, {@code holds} or {@code lies inside}, or null when the two are apart. */
    private static String relation(String out, String in, boolean inputIsFile) {
        if (out.equals(in)) {
            return "is";
        }
        if (isInside(in, out)) {
            return "holds";
        }
        // under a file nothing can be made: that refusal (output-under-file) says more
        return isInside(out, in) && !inputIsFile ? "lies inside" : null;
    }

    private static boolean isInside(String child, String parent) {
        return child.startsWith(parent.endsWith("/") ? parent : parent + "/");
    }

    /**
     * The path a location really names: a local one with its links resolved, from its nearest existing ancestor; any
     * other as Hadoop qualifies it (HDFS resolves no links unless told to, object stores have none): its store's.
     */
    static String resolved(Path qualified) {
        return Stores.forPath(qualified).resolved(qualified);
    }
}
