package dev.tensorbroadcast.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The program run as its user runs it, on the example input next to it. */
class ExpandExampleRunTest {
    @TempDir
    Path dir;

    @Test
    void writesTheParquetFilesAndPrintsTheRows() throws Exception {
        Path output = dir.resolve("example");
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            ExpandExample.main(new String[] {Path.of("row3.npy").toAbsolutePath().toString(), output.toString()});
        } finally {
            System.setOut(stdout);
        }
        String last = printed.toString(StandardCharsets.UTF_8).strip().lines().reduce((a, b) -> b).orElse("");
        assertEquals("wrote 1000 rows of [3] in 1 file; 8 rows in memory, the last [0.5, 1.5, 2.5]", last);
        assertTrue(Files.exists(output.resolve("_manifest.json")), "the manifest");
        assertTrue(Files.exists(output.resolve("_SUCCESS")), "the commit marker");
    }
}
