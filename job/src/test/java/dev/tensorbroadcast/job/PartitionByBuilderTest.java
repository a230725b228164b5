package dev.tensorbroadcast.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** {@code TensorBroadcast.Builder.partitionBy}: the Java caller's {@code --partition-by}, refused in its words. */
class PartitionByBuilderTest {
    @Test
    void keysAreKeptInOrder() {
        TensorBroadcast broadcast = TensorBroadcast.builder()
                .source("x.npy")
                .dialect(Dialect.NUMPY)
                .partitionBy("day", "tag")
                .build();

        assertThat(broadcast.partitionBy()).containsExactly("day", "tag");
        assertThat(TensorBroadcast.builder()
                        .source("x.npy")
                        .dialect(Dialect.NUMPY)
                        .build()
                        .partitionBy())
                .isEmpty();
    }

    @Test
    void aKeyGivenTwiceIsRefusedInTheBuildersWords() {
        assertThatThrownBy(() -> TensorBroadcast.builder().partitionBy("day", "day"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot partition by 'day,day': key 'day' is given twice; give each partition key once,"
                        + " such as partitionBy(\"day\")");
    }

    @Test
    void severalSourcesAreRefused() {
        TensorBroadcast broadcast = TensorBroadcast.builder()
                .source("../examples/row3.npy")
                .source("../examples/col3.npy")
                .dialect(Dialect.NUMPY)
                .partitionBy("day")
                .build();

        assertThatThrownBy(() -> broadcast.prepare(new Configuration()))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot partition the output by day: it has 2 inputs, each written as a dataset of its"
                        + " own; partitionBy partitions one input's output (expand)");
    }

    @Test
    void anArrayFormatIsRefused() {
        assertThatThrownBy(() -> TensorBroadcast.builder()
                        .source("x.npy")
                        .dialect(Dialect.NUMPY)
                        .format(OutputFormat.parse("zarr"))
                        .partitionBy("day")
                        .build())
                .isInstanceOf(InvalidRequestException.class)
                .hasMessage("Cannot partition a zarr array by day: an array is one chunk grid, not files under"
                        + " key=value directories; give format(OutputFormat.ARROW or PARQUET), or leave out"
                        + " partitionBy");
    }
}
