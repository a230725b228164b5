package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.ByteSize;
import dev.tensorbroadcast.job.PreparedBroadcast;
import dev.tensorbroadcast.job.TensorBroadcast;
import dev.tensorbroadcast.job.pipeline.NpyFiles;
import dev.tensorbroadcast.planner.Dialect;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expand}'s resource guards: an output over {@code --max-output} or over a local file system's usable space is
 * refused before Spark starts, with nothing written. None of these runs starts Spark.
 */
class ResourceGuardTest {
    /** 2^36 rows of 8 int32: 2 TiB of values. */
    private static final String TWO_TIB = "68719476736,8";
    /** 2^45 rows of 8 int32: 1 PiB, more than any test machine's disk. */
    private static final String ONE_PIB = "35184372088832,8";

    @TempDir
    Path dir;

    private Path source;
    private Path output;

    @BeforeEach
    void writeSource() throws Exception {
        source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        output = dir.resolve("out");
    }

    private CliRun expand(String shape, String... more) {
        String[] args = {
            "expand",
            "--input",
            source.toString(),
            "--dialect",
            "numpy",
            "--shape",
            shape,
            "--output",
            output.toString()
        };
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return CliRun.of(all);
    }

    @Test
    void refusesAnOutputOverTheDefaultLimitOfOneTebibyte() {
        CliRun run = expand(TWO_TIB);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .isEqualTo("Cannot write 2.0 TiB (2199023255552 bytes) to file:" + output + ": more than"
                        + " the output limit of 1.0 TiB (1099511627776 bytes); raise it with --max-output, such as"
                        + " --max-output 2t, or lift it with --max-output none\n");
        assertThat(Files.exists(output)).isFalse();
    }

    @Test
    void refusesAnOutputOverAGivenLimitAsJson() {
        CliRun run = expand("1000,8", "--max-output", "16k", "--json");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.json().get("error").get("kind").asText()).isEqualTo("too_large");
        assertThat(run.json().get("error").get("message").asText())
                .isEqualTo("Cannot write 31.3 KiB (32000 bytes)"
                        + " to file:" + output + ": more than the output limit of 16.0 KiB (16384 bytes); raise it with"
                        + " --max-output, such as --max-output 32k, or lift it with --max-output none");
        assertThat(Files.exists(output)).isFalse();
    }

    @Test
    void refusesAnOutputLargerThanTheFreeSpace() {
        CliRun run = expand(ONE_PIB, "--max-output", "none");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .startsWith("Cannot write 1.3 PiB (1407374883553280 bytes of files, uncompressed) to file:" + output
                        + ": its file system has ")
                .matches("(?s).* usable; free some space, choose another output, or pass --ignore-free-space if"
                        + " compression will make it fit\n")
                .hasLineCount(1);
        assertThat(Files.exists(output)).isFalse();
    }

    @Test
    void theLimitAndTheFreeSpaceCheckCanBeLifted() {
        // prepare() is every check expand makes before Spark starts; running this would really write a pebibyte
        PreparedBroadcast prepared = TensorBroadcast.builder()
                .source(source.toString())
                .dialect(Dialect.NUMPY)
                .shape(35184372088832L, 8)
                .output(output.toString())
                .maxOutputBytes(TensorBroadcast.NO_OUTPUT_LIMIT)
                .checkFreeSpace(false)
                // partitions of 4 GiB: 262,144 tasks, which a test JVM's driver holds (8 Mi of 128 MiB it does not)
                .partitionBytes(4L << 30)
                .build()
                .prepare(new Configuration());

        assertThat(prepared.outputBytes()).isEqualTo(1L << 50);
        assertThat(Files.exists(output)).isFalse();
    }

    @Test
    void theDefaultLimitIsOneTebibyteAsTypedAndInTheApi() {
        assertThat(ByteSize.parse("output limit", WriteOptions.DEFAULT_MAX_OUTPUT))
                .isEqualTo(TensorBroadcast.DEFAULT_MAX_OUTPUT_BYTES)
                .isEqualTo(1L << 40);
        assertThat(new WriteOptions().maxOutputBytes()).isEqualTo(1L << 40);
    }

    @Test
    void refusesALimitItCannotRead() {
        CliRun run = expand("6,8", "--max-output", "lots");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo("Cannot parse output limit 'lots': write a number of bytes with an optional"
                        + " k, m, g or t (binary units), such as 128m or 4096\n");
        assertThat(Files.exists(output)).isFalse();
    }

    @Test
    void planPrintsTheOutputSize() {
        CliRun run =
                CliRun.of("plan", "--dialect", "numpy", "--input-shape", "1,8", "--shape", TWO_TIB, "--dtype", "int32");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("bytes         2199023255552 (2.0 TiB)\n");
    }
}
