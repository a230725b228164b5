package dev.tensorbroadcast.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tensorbroadcast.planner.Dialect;
import dev.tensorbroadcast.planner.InvalidRequestException;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The two builders share one core: the same options, refused at once in the same words. */
class RequestBuilderTest {
    private static final List<Supplier<RequestBuilder<?>>> BOTH =
            List.of(TensorBroadcast::builder, TensorReduce::builder);

    @Test
    void bothBuildersRefuseAPartitionSizeOrCountOutOfRangeWhenGiven() {
        for (Supplier<RequestBuilder<?>> builder : BOTH) {
            assertThatThrownBy(() -> builder.get().partitionBytes(0))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Cannot use partition size 0: it must be at least 1 byte");
            assertThatThrownBy(() -> builder.get().partitions(0))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Cannot use 0 partitions: the count must be from 1 to 2147483647");
            assertThatThrownBy(() -> builder.get().partitions(1L << 31))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Cannot use 2147483648 partitions: the count must be from 1 to 2147483647");
            assertThatThrownBy(() -> builder.get().shipThreshold(-1))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Cannot use ship threshold -1: it must be 0 bytes or more");
        }
    }

    @Test
    void bothRequestsKeepWhatTheCoreWasGiven() {
        TensorBroadcast broadcast = TensorBroadcast.builder()
                .source("/tmp/in.npy")
                .dialect(Dialect.NUMPY)
                .output("/tmp/out")
                .column("values")
                .rowShape(Shape.of(2, 3))
                .partitions(7)
                .shipThreshold(0)
                .format(OutputFormat.PARQUET)
                .build();
        assertThat(broadcast.output()).contains("/tmp/out");
        assertThat(broadcast.arrowOptions().column()).contains("values");
        assertThat(broadcast.rowShape()).contains(Shape.of(2, 3));
        assertThat(broadcast.partitioning()).isEqualTo(new Partitioning(OptionalLong.empty(), OptionalLong.of(7)));
        assertThat(broadcast.shipThreshold()).isZero();
        assertThat(broadcast.write().format()).contains(OutputFormat.PARQUET);

        TensorReduce reduce = TensorReduce.builder()
                .gradient("/tmp/grad")
                .dialect(Dialect.NUMPY)
                .inputShape(Shape.of(3))
                .output("/tmp/out")
                .column("values")
                .rowShape(Shape.of(2, 3))
                .partitionBytes(1 << 20)
                .format(OutputFormat.PARQUET)
                .build();
        assertThat(reduce.output()).isEqualTo("/tmp/out");
        assertThat(reduce.column()).contains("values");
        assertThat(reduce.rowShape()).contains(Shape.of(2, 3));
        assertThat(reduce.partitioning()).isEqualTo(new Partitioning(OptionalLong.of(1 << 20), OptionalLong.empty()));
        assertThat(reduce.partitioning().bytesOrDefault()).isEqualTo(1 << 20);
        assertThat(broadcast.partitioning().bytesOrDefault()).isEqualTo(PartitionPlan.DEFAULT_PARTITION_BYTES);
        assertThat(reduce.shipThreshold()).isEqualTo(TensorBroadcast.DEFAULT_SHIP_THRESHOLD);
        assertThat(reduce.formatName()).isEqualTo("parquet");
    }

    /**
     * A caller outside the package that calls by reflection (py4j, a scripting language) finds every public setter
     * in a public class: the core's through the builder's bridge, which a {@code final} setter in the core would lose.
     */
    @Test
    void everyPublicSetterIsDeclaredInAPublicClass() {
        for (Class<?> builder : List.of(TensorBroadcast.Builder.class, TensorReduce.Builder.class)) {
            List<String> hidden = new ArrayList<>();
            for (Method method : builder.getMethods()) {
                if (!Modifier.isPublic(method.getDeclaringClass().getModifiers())) {
                    hidden.add(method.getDeclaringClass().getSimpleName() + "." + method.getName());
                }
            }
            assertThat(hidden).as(builder.getName()).isEmpty();
            assertThat(builder.getMethods())
                    .extracting(Method::getName)
                    .contains(
                            "output", "column", "rowShape", "format", "partitionBytes", "partitions", "shipThreshold");
        }
    }
}
