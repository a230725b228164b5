package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.job.pipeline.NpyFiles;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --conf key=value}: only Spark settings other than the master are taken, checked before Spark starts, and a
 * refused setting's value is never printed (it may be a secret). That the settings reach the session is shown by
 * the cluster integration tests, whose slowed tasks and speculation come from {@code --conf}.
 */
class SparkConfOptionTest {
    @TempDir
    Path dir;

    private CliRun expand(String... conf) throws Exception {
        Path source = NpyFiles.int32(dir.resolve("row.npy"), new long[] {1, 8});
        String[] args = {
            "expand",
            "--input",
            source.toString(),
            "--dialect",
            "numpy",
            "--shape",
            "4,8",
            "--output",
            dir.resolve("out").toString(),
            "--master",
            "local[1]"
        };
        String[] all = java.util.Arrays.copyOf(args, args.length + conf.length);
        System.arraycopy(conf, 0, all, args.length, conf.length);
        return CliRun.of(all);
    }

    @Test
    void refusesAKeyThatIsNotASparkSettingWithoutPrintingItsValue() throws Exception {
        CliRun run = expand("--conf", "spark.speculation=true", "--conf", "speculation=hunter2");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines().filter(line -> line.startsWith("Cannot")))
                .containsExactly(
                        "Cannot apply --conf 'speculation': it is not a Spark setting; give spark.<name>=<value>, as"
                                + " spark-submit --conf takes it");
        assertThat(run.err()).doesNotContain("hunter2");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void refusesTheMasterWhichHasAnOptionOfItsOwn() throws Exception {
        CliRun run = expand("--conf", "spark.master=local[4]");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines().filter(line -> line.startsWith("Cannot")))
                .containsExactly("Cannot apply --conf spark.master: give the master with --master");
    }

    @Test
    void refusesASettingWithoutAValue() throws Exception {
        CliRun run = expand("--conf", "spark.speculation");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--conf").contains("spark.speculation").doesNotContain("\tat ");
    }
}
