package dev.tensorbroadcast.job.cli;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * What an output holds, as the soak's oracle compares it: every file by its path under the output and the CRC32C of
 * its bytes, and every directory (S3's staging prefix is a directory marker). The bytes that legitimately differ
 * between two clean runs of one request are left out of the manifest's checksum: its creation time, and where each
 * file was written ({@code files[].executor_id}, {@code files[].host}, {@code files[].source_read.bytes_read}, which
 * depend on which executor ran the task and whether it had the source already), the order of the request's
 * keys, and a Parquet file's footer and
 * its checksum there (see {@link #parquetPages}). The lock's bytes (its owner's
 * process, host and time) are left out too: it is compared by name only.
 */
record SoakListing(SortedMap<String, Long> files, Set<String> directories) {
    static final String LOCK = "_tensor-broadcast.lock";
    static final String PREVIOUS = "_tensor-broadcast.previous";
    static final String MOVING = "_tensor-broadcast.moving";
    static final String SUCCESS = "_SUCCESS";
    static final String MANIFEST = "_manifest.json";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    SoakListing {
        files = new TreeMap<>(requireNonNull(files, "files is null"));
        directories = new TreeSet<>(requireNonNull(directories, "directories is null"));
    }

    static SoakListing empty() {
        return new SoakListing(new TreeMap<>(), Set.of());
    }

    /** The listing of {@code files} (their bytes by path), as written to a store. */
    static SoakListing of(Map<String, byte[]> files) {
        TreeMap<String, Long> checksums = new TreeMap<>();
        files.forEach((path, bytes) -> checksums.put(path, checksum(path, bytes)));
        return new SoakListing(checksums, Set.of());
    }

    /** The checksum the oracle compares for the file at {@code path} with {@code bytes}. */
    static long checksum(String path, byte[] bytes) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        byte[] compared = bytes;
        if (name.equals(LOCK)) {
            compared = new byte[0];
        } else if (name.equals(MANIFEST)) {
            compared = withoutVaryingFields(bytes);
        } else if (name.endsWith(".parquet")) {
            compared = parquetPages(bytes);
        }
        CRC32C crc = new CRC32C();
        crc.update(compared);
        return crc.getValue();
    }

    /**
     * A Parquet file's pages and its footer's length, not the footer's bytes: parquet-mr lists a column chunk's
     * encodings from a hash set of enum constants, whose order follows identity hash codes and so differs from one JVM
     * to the next (two clean runs of one request differ in two bytes of the footer).
     */
    private static byte[] parquetPages(byte[] file) {
        if (file.length < 12) {
            return file;
        }
        int footer = ByteBuffer.wrap(file, file.length - 8, 4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .getInt();
        int pages = file.length - 8 - footer;
        if (footer < 0 || pages < 0) {
            return file;
        }
        byte[] compared = Arrays.copyOf(file, pages + 4);
        ByteBuffer.wrap(compared, pages, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer);
        return compared;
    }

    /** A manifest as the oracle compares it, as text: for a report of how two differ. */
    static String comparedManifest(byte[] manifest) {
        return new String(withoutVaryingFields(manifest), java.nio.charset.StandardCharsets.UTF_8);
    }

    private static byte[] withoutVaryingFields(byte[] manifest) {
        try {
            JsonNode json = MAPPER.readTree(manifest);
            if (!(json instanceof ObjectNode object)) {
                return manifest;
            }
            object.remove("created");
            if (object.get("request") instanceof ObjectNode request) {
                // the request's keys come in two orders (the manifest a killed run left on S3 has the dialect
                // first, a finished run's the shape first): compared as a map
                object.set("request", MAPPER.valueToTree(new TreeMap<>(MAPPER.convertValue(request, Map.class))));
            }
            JsonNode files = object.get("files");
            if (files != null) {
                for (JsonNode file : files) {
                    if (file instanceof ObjectNode entry) {
                        entry.remove("executor_id");
                        entry.remove("host");
                        if (entry.path("path").asText().endsWith(".parquet")) {
                            // the footer's bytes vary, so the file's checksum does (see parquetPages)
                            entry.remove("crc32c");
                        }
                        if (entry.get("source_read") instanceof ObjectNode read) {
                            read.remove("bytes_read");
                        }
                    }
                }
            }
            return MAPPER.writeValueAsBytes(object);
        } catch (IOException e) {
            // a manifest cut short is compared as the bytes it has
            return manifest;
        }
    }

    boolean isEmpty() {
        return files.isEmpty();
    }

    boolean has(String path) {
        return files.containsKey(path) || directories.contains(path);
    }

    boolean hasPrefix(String prefix) {
        return files.keySet().stream().anyMatch(path -> path.startsWith(prefix))
                || directories.stream().anyMatch(path -> path.startsWith(prefix));
    }

    /** The files under {@code prefix} (ending in '/'), with the prefix cut off. */
    SoakListing under(String prefix) {
        SortedMap<String, Long> inside = new TreeMap<>();
        files.forEach((path, crc) -> {
            if (path.startsWith(prefix)) {
                inside.put(path.substring(prefix.length()), crc);
            }
        });
        Set<String> dirs = new TreeSet<>();
        directories.stream()
                .filter(path -> path.startsWith(prefix) && path.length() > prefix.length())
                .forEach(path -> dirs.add(path.substring(prefix.length())));
        return new SoakListing(inside, dirs);
    }

    /** The files outside {@code prefix}. */
    SoakListing without(String prefix) {
        SortedMap<String, Long> outside = new TreeMap<>(files);
        outside.keySet().removeIf(path -> path.startsWith(prefix));
        Set<String> dirs = new TreeSet<>(directories);
        dirs.removeIf(path -> path.startsWith(prefix) || (path + "/").equals(prefix));
        return new SoakListing(outside, dirs);
    }

    /** Same files with the same checksums (directories aside: an emptied prefix may stay on some stores). */
    boolean sameFiles(SoakListing other) {
        return files.equals(other.files);
    }

    /** What differs from {@code expected}, for a report: missing, extra and changed paths. */
    String difference(SoakListing expected) {
        Map<String, Long> want = expected.files;
        StringBuilder text = new StringBuilder();
        want.keySet().stream()
                .filter(path -> !files.containsKey(path))
                .forEach(p -> text.append(" -").append(p));
        files.keySet().stream()
                .filter(path -> !want.containsKey(path))
                .forEach(p -> text.append(" +").append(p));
        files.keySet().stream()
                .filter(path -> want.containsKey(path) && !want.get(path).equals(files.get(path)))
                .forEach(path -> text.append(" ~").append(path));
        return text.isEmpty() ? " (same)" : text.toString();
    }

    @Override
    public String toString() {
        return files.keySet() + " dirs " + directories;
    }

    /** A listing seen by a watcher, with whether it has seen the job's staging before in this run. */
    record View(SoakListing listing, boolean tasksSeen) {
        boolean has(String path) {
            return listing.has(path);
        }

        boolean hasPrefix(String prefix) {
            return listing.hasPrefix(prefix);
        }

        boolean staging() {
            return listing.hasPrefix("_temporary") || listing.hasPrefix("__magic");
        }

        boolean committedTask() {
            return listing.files().keySet().stream().anyMatch(path -> path.startsWith("_temporary/0/task_"));
        }

        boolean topPartFile() {
            return listing.files().keySet().stream().anyMatch(path -> path.startsWith("part-"));
        }

        boolean manifest() {
            return listing.has(MANIFEST) || listing.has(MANIFEST + ".staged");
        }
    }
}
