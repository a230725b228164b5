package dev.tensorbroadcast.job.manifest;

/**
 * The rule for paths a manifest may name: plain relative names inside the dataset, never up and out of it, and
 * without control characters (a line break in a name would forge lines in any report that lists it).
 */
final class ManifestPaths {
    private ManifestPaths() {}

    static void requireInside(String path) {
        boolean escapes = path.isEmpty()
                || path.startsWith("/")
                || path.startsWith("\\")
                || path.contains(":")
                || path.contains("\\")
                || path.chars().anyMatch(Character::isISOControl);
        for (String part : path.split("/", -1)) {
            escapes |= part.isEmpty() || part.equals(".") || part.equals("..");
        }
        if (escapes) {
            throw new ManifestException("Cannot accept manifest path '" + path + "': a dataset file must be a"
                    + " relative path inside the dataset, such as part-00000.arrow");
        }
    }
}
