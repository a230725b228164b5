package dev.tensorbroadcast.arrowio.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tensorbroadcast.arrowio.format.arrow.Gather;
import org.junit.jupiter.api.Test;

class LayoutsTest {
    @Test
    void logicalOrderAndTheElementMapWalkAPermutationAlike() {
        // logical [2,3,4]; physical axes (logical 2, 0, 1): physical shape [4,2,3]
        long[] logical = {2, 3, 4};
        int[] physicalAxes = {2, 0, 1};
        byte[] physical = new byte[24];
        for (int i = 0; i < physical.length; i++) {
            physical[i] = (byte) i;
        }
        byte[] ordered = Layouts.toLogicalOrder(physical, 1, logical, physicalAxes);
        int[] map = Gather.elementMap(1, null, logical, physicalAxes);
        for (int a = 0; a < 2; a++) {
            for (int b = 0; b < 3; b++) {
                for (int c = 0; c < 4; c++) {
                    int l = (a * 3 + b) * 4 + c;
                    int p = (c * 2 + a) * 3 + b;
                    assertThat(ordered[l]).as("logical %d", l).isEqualTo((byte) p);
                    assertThat(map[l]).as("map %d", l).isEqualTo(p);
                }
            }
        }
    }
}
