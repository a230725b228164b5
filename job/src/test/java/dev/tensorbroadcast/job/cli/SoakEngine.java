package dev.tensorbroadcast.job.cli;

import java.util.ArrayList;
import java.util.List;

/** Where a soak run's tasks run: the command line's own threads, a local Spark, or the standalone cluster. */
enum SoakEngine {
    EMBEDDED(List.of(), "spark.hadoop."),
    LOCAL_SPARK(List.of("--master", "local[2]"), "spark."),
    CLUSTER(List.of("--master", "local-cluster"), "spark.");

    private final List<String> arguments;
    /** The prefix of a test setting that reaches this engine's tasks (see InjectedFailure). */
    private final String testSettingPrefix;

    SoakEngine(List<String> arguments, String testSettingPrefix) {
        this.arguments = arguments;
        this.testSettingPrefix = testSettingPrefix;
    }

    List<String> arguments() {
        return arguments;
    }

    /** {@code --conf} arguments that give this engine's tasks the test setting {@code name} (without a prefix). */
    List<String> testSetting(String name, String value) {
        List<String> args = new ArrayList<>();
        args.add("--conf");
        args.add(testSettingPrefix + "tensorbroadcast.test." + name + "=" + value);
        return args;
    }

    /** How much later than the embedded engine a run reaches its job: Spark starts first. */
    int startMillis() {
        return this == EMBEDDED ? 2500 : 8000;
    }
}
