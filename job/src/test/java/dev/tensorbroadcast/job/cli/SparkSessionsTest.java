package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The settings a session we start gets when the user gave none, and that the user's {@code --conf} wins over them.
 */
class SparkSessionsTest {
    private static String directResultSize(Map<String, String> conf) {
        try (SparkSessions.Session session = SparkSessions.obtain("local[1]", conf)) {
            assertThat(session.owned()).as("a session of this test's own").isTrue();
            return session.spark().sparkContext().getConf().get("spark.task.maxDirectResultSize");
        }
    }

    @Test
    void taskResultsUpTo64MiBGoStraightToTheDriverUnlessTheUserSaysOtherwise() {
        // a rows-kept reduce task returns up to 16 MiB of sums; Spark's 1 MiB default would park it in the block
        // manager
        assertThat(directResultSize(Map.of())).isEqualTo("64m");
        assertThat(directResultSize(Map.of("spark.task.maxDirectResultSize", "2m")))
                .isEqualTo("2m");
    }
}
