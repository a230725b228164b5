package dev.tensorbroadcast.job.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The commit's named fault points, as a test or the fault soak names them, and a pause at one. */
class FaultPointTest {
    @Test
    void everyPointIsFoundByItsName() {
        for (FaultPoint point : FaultPoint.values()) {
            assertThat(FaultPoint.named(point.pointName())).isSameAs(point);
        }
        assertThat(Arrays.stream(FaultPoint.values()).map(FaultPoint::pointName))
                .containsExactly(
                        "commit.start",
                        "commit.recorded",
                        "commit.markers-taken",
                        "commit.files-committed",
                        "commit.cleaned",
                        "commit.manifest-written",
                        "commit.success-written",
                        "commit.done",
                        "lock.staged",
                        "lock.created",
                        "overwrite.moving-aside",
                        "overwrite.set-aside",
                        "overwrite.moving-back");
    }

    @Test
    void anUnknownNameIsRefusedNamingThePoints() {
        assertThatThrownBy(() -> FaultPoint.named("commit.middle"))
                .hasMessage("Cannot find fault point 'commit.middle': the points are [commit.start, commit.recorded,"
                        + " commit.markers-taken, commit.files-committed, commit.cleaned, commit.manifest-written,"
                        + " commit.success-written, commit.done, lock.staged, lock.created, overwrite.moving-aside,"
                        + " overwrite.set-aside, overwrite.moving-back]");
    }

    /** A pause at the point reached lasts the time it is given; at any other point nothing waits. */
    @Test
    void aPauseHoldsTheDriverAtItsPointOnly() {
        Configuration conf = new Configuration(false);
        conf.set(FaultPoint.PAUSE_AT, "commit.cleaned");
        conf.set(FaultPoint.PAUSE_MILLIS, "400");

        long start = System.nanoTime();
        FaultPoint.COMMIT_START.reach(conf);
        long elsewhere = System.nanoTime() - start;
        start = System.nanoTime();
        FaultPoint.COMMIT_CLEANED.reach(conf);
        long there = System.nanoTime() - start;

        assertThat(elsewhere).isLessThan(200_000_000L);
        assertThat(there).isGreaterThanOrEqualTo(400_000_000L);
    }
}
