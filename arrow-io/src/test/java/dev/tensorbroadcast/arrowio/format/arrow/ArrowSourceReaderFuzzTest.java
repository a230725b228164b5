package dev.tensorbroadcast.arrowio.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tensorbroadcast.arrowio.SourceTensor;
import dev.tensorbroadcast.arrowio.TensorKernel;
import dev.tensorbroadcast.arrowio.format.SourceFormatException;
import dev.tensorbroadcast.arrowio.format.SourceLimits;
import dev.tensorbroadcast.arrowio.source.TensorValues;
import dev.tensorbroadcast.planner.CopyProgram;
import dev.tensorbroadcast.planner.InputBroadcast;
import dev.tensorbroadcast.planner.PartitionPlan;
import dev.tensorbroadcast.planner.Shape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Hostile Arrow IPC bytes, files and streams alike: the reader either refuses them with one
 * {@link SourceFormatException} line, or returns a tensor that survives a round trip through our own writer. Runs over
 * the committed inputs in {@code ArrowSourceReaderFuzzTestInputs} in every build; {@code fuzz/run.sh} fuzzes it (see
 * {@code docs/reliability.md}).
 */
class ArrowSourceReaderFuzzTest {
    private static final ArrowSourceReader READER = new ArrowSourceReader(SourceLimits.defaults());

    @FuzzTest(maxDuration = "5m")
    void readsOrRefusesCleanly(byte[] file) throws IOException {
        SourceTensor known = read(file, file.length);
        SourceTensor streamed = read(file, ArrowSourceReader.UNKNOWN_LENGTH);
        assertThat(streamed == null)
                .as("accepted with a known length but not a streamed one")
                .isEqualTo(known == null);
        if (known == null) {
            return;
        }
        assertSame(streamed, known);
        SourceTensor again = READER.read(
                "again.arrow",
                new ByteArrayInputStream(rewritten(known)),
                ArrowSourceReader.UNKNOWN_LENGTH,
                ArrowSourceOptions.defaults());
        assertThat(again.dtype()).isEqualTo(known.dtype());
        assertThat(again.elements()).isEqualTo(known.elements());
        assertThat(TensorValues.of(again)).isEqualTo(TensorValues.of(known));
    }

    /** The tensor read, or null when the reader refused the file with a clean one-line message. */
    private static SourceTensor read(byte[] file, long length) throws IOException {
        try {
            return READER.read("fuzz.arrow", new ByteArrayInputStream(file), length, ArrowSourceOptions.defaults());
        } catch (SourceFormatException e) {
            assertThat(e.getMessage()).startsWith("Cannot read fuzz.arrow: ").doesNotContain("\n", "\r");
            return null;
        }
    }

    private static void assertSame(SourceTensor actual, SourceTensor expected) {
        assertThat(actual.dtype()).isEqualTo(expected.dtype());
        assertThat(actual.shape()).isEqualTo(expected.shape());
        assertThat(TensorValues.of(actual)).isEqualTo(TensorValues.of(expected));
    }

    /** The tensor written as one file of ours: the identity broadcast, one partition. */
    private static byte[] rewritten(SourceTensor tensor) throws IOException {
        Shape shape = tensor.shape();
        CopyProgram identity = CopyProgram.of(
                shape, InputBroadcast.rightAligned(shape, shape.rank()).sourceStrides(shape));
        PartitionPlan plan =
                PartitionPlan.builder(shape, tensor.dtype()).partitions(1).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ArrowTensorFileWriter.create()
                .write(TensorKernel.of(tensor, identity), plan.rowShape(), plan.partition(0), out);
        return out.toByteArray();
    }
}
