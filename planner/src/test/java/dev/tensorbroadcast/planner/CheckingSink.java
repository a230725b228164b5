package dev.tensorbroadcast.planner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Executes a {@link CopyProgram}'s operations literally, element by element, over the source {@code source[i] = i},
 * and checks each one as it comes: inside the target range and the source, every element written once, and a
 * {@code repeat} only reading elements already written.
 */
final class CheckingSink implements CopySink {
    private final long sourceElements;
    private final long[] target;
    private final boolean[] written;
    private int copies;
    private int repeats;

    CheckingSink(long sourceElements, long targetElements) {
        this.sourceElements = sourceElements;
        this.target = new long[Math.toIntExact(targetElements)];
        this.written = new boolean[target.length];
    }

    @Override
    public void copy(long sourceOffset, long targetOffset, long length) {
        String op = "copy(" + sourceOffset + ", " + targetOffset + ", " + length + ")";
        assertThat(length).as(op).isPositive();
        assertThat(sourceOffset).as(op).isNotNegative();
        assertThat(sourceOffset + length).as(op).isLessThanOrEqualTo(sourceElements);
        assertThat(targetOffset).as(op).isNotNegative();
        assertThat(targetOffset + length).as(op).isLessThanOrEqualTo(target.length);
        for (int k = 0; k < length; k++) {
            write(op, (int) (targetOffset + k), sourceOffset + k);
        }
        copies++;
    }

    @Override
    public void repeat(long targetOffset, long blockLength, long times) {
        String op = "repeat(" + targetOffset + ", " + blockLength + ", " + times + ")";
        assertThat(blockLength).as(op).isPositive();
        assertThat(times).as(op + ": a repeat of one block does nothing").isGreaterThan(1);
        assertThat(targetOffset).as(op).isNotNegative();
        assertThat(targetOffset + blockLength * times).as(op).isLessThanOrEqualTo(target.length);
        for (int k = 0; k < blockLength; k++) {
            if (!written[(int) (targetOffset + k)]) {
                throw new AssertionError(op + " reads unwritten element " + (targetOffset + k));
            }
        }
        for (long r = 1; r < times; r++) {
            for (int k = 0; k < blockLength; k++) {
                int to = (int) (targetOffset + r * blockLength + k);
                write(op, to, target[(int) (targetOffset + k)]);
            }
        }
        repeats++;
    }

    private void write(String op, int at, long value) {
        // plain checks: this runs once per element
        if (written[at]) {
            throw new AssertionError(op + " writes element " + at + " a second time");
        }
        written[at] = true;
        target[at] = value;
    }

    long[] target() {
        for (int i = 0; i < written.length; i++) {
            if (!written[i]) {
                throw new AssertionError("element " + i + " was never written");
            }
        }
        return target;
    }

    int copies() {
        return copies;
    }

    int repeats() {
        return repeats;
    }

    int operations() {
        return copies + repeats;
    }
}
