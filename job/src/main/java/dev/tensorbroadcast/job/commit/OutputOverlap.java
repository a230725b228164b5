package dev.tensorbroadcast.job.commit;

import static java.util.Objects.requireNonNull;

import dev.tensorbroadcast.job.base.Locations;
import dev.tensorbroadcast.job.base.OutputException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.util.ArrayDeque;
import java.util.Deque;
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
            requireApart(output, qualified, input, Locations.locate("input", input, conf).path());
        }
    }

    /** Refuses {@code output} when it overlaps {@code input}: each as typed, with its qualified path. */
    public static void requireApart(String output, Path outputPath, String input, Path inputPath) {
        String out = resolved(outputPath);
        String in = resolved(inputPath);
        String relation = relation(out, in);
        if (relation != null) {
            String where = relation.equals("is") ? "both " + out : relation.equals("holds") ? in + " inside " + out
                    : out + " inside " + in;
            throw new OutputException("Cannot write to '" + output + "': it " + relation + " the input '" + input
                    + "' (" + where + "), and a job must not write where it reads; write to a path outside every"
                    + " input, then move the result where you want it");
        }
    }

    /** {@code is}, {@code holds} or {@code lies inside}, or null when the two are apart. */
    private static String relation(String out, String in) {
        if (out.equals(in)) {
            return "is";
        }
        if (isInside(in, out)) {
            return "holds";
        }
        // under a local file nothing can be made: that refusal (output-under-file) says more
        return isInside(out, in) && !isLocalFile(in) ? "lies inside" : null;
    }

    private static boolean isLocalFile(String resolved) {
        return resolved.startsWith("file:") && Files.isRegularFile(java.nio.file.Path.of(resolved.substring(5)));
    }

    private static boolean isInside(String child, String parent) {
        return child.startsWith(parent.endsWith("/") ? parent : parent + "/");
    }

    /**
     * The path a location really names: a local one with its links resolved, from its nearest existing ancestor; any
     * other as Hadoop qualifies it (HDFS resolves no links unless told to, object stores have none).
     */
    static String resolved(Path qualified) {
        URI uri = qualified.toUri();
        if (!"file".equals(uri.getScheme())) {
            return qualified.toString();
        }
        java.nio.file.Path local = java.nio.file.Path.of(uri).normalize();
        Deque<String> missing = new ArrayDeque<>();
        java.nio.file.Path existing = local;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            missing.push(existing.getFileName().toString());
            existing = existing.getParent();
        }
        if (existing == null) {
            return "file:" + local;
        }
        java.nio.file.Path real;
        try {
            real = existing.toRealPath();
        } catch (IOException e) {
            // a dangling link: compare what is written, which names nothing of an input's
            real = existing;
        }
        while (!missing.isEmpty()) {
            real = real.resolve(missing.pop());
        }
        return "file:" + real;
    }
}
