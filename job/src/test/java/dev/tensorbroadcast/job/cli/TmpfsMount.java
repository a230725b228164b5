package dev.tensorbroadcast.job.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** A small tmpfs mounted for one test (root is needed; the test is skipped with the reason otherwise). */
final class TmpfsMount implements AutoCloseable {
    private final Path directory;

    private TmpfsMount(Path directory) {
        this.directory = directory;
    }

    /** Mounts a tmpfs with {@code options} (such as {@code size=1m} or {@code ro,size=1m}) at a new directory. */
    static TmpfsMount at(Path directory, String options) throws Exception {
        Files.createDirectories(directory);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", options, "tmpfs", directory.toString())
                .redirectErrorStream(true)
                .start();
        boolean mounted = mount.waitFor(10, TimeUnit.SECONDS) && mount.exitValue() == 0;
        String output = mounted ? "" : readAll(mount);
        Assumptions.assumeTrue(mounted, () -> "cannot mount a tmpfs here (root is needed): " + output);
        return new TmpfsMount(directory);
    }

    Path path() {
        return directory;
    }

    @Override
    public void close() throws Exception {
        new ProcessBuilder("umount", directory.toString()).start().waitFor(10, TimeUnit.SECONDS);
    }

    private static String readAll(Process process) {
        try {
            return new String(process.getInputStream().readAllBytes()).strip();
        } catch (IOException e) {
            return e.toString();
        }
    }
}
