package dev.tensorbroadcast.job.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * A random broadcast request for the zero-size properties: dialect (and OpenVINO mode), input shapes, target and the
 * dialect's axes, as the command line takes them. Built around an intended output of ranks 0 to 6 and dims 0 to 3
 * that mostly holds a 0 (anywhere), so most requests are zero-size and accepted, and some are not.
 *
 * @param target null for a joint broadcast without one
 * @param axes the axes mapping (openvino explicit) or broadcast axes (ngraph), else null
 * @param axis openvino pdpd's axis, or null for its default
 */
record ZeroSizeRequest(String dialect, String mode, List<long[]> inputs, long[] target, long[] axes, Long axis) {
    static final String[] DIALECTS = {"numpy", "pytorch", "paddle", "mindspore", "onnx", "openvino", "ngraph"};
    static final String[] MODES = {"numpy", "bidirectional", "explicit", "pdpd"};

    /** The request's options after the subcommand, without its inputs. */
    List<String> requestArgs() {
        List<String> args = new ArrayList<>(List.of("--dialect", dialect));
        if (mode != null) {
            args.addAll(List.of("--mode", mode));
        }
        if (target != null) {
            args.add("--shape=" + text(target));
        }
        if (axes != null) {
            args.add((dialect.equals("ngraph") ? "--broadcast-axes=" : "--axes-mapping=") + text(axes));
        }
        if (axis != null) {
            args.add("--axis=" + axis);
        }
        return args;
    }

    /** The request's options with its inputs as {@code --input-shape}s (plan, reduce). */
    List<String> shapeArgs() {
        List<String> args = requestArgs();
        inputs.forEach(input -> args.add("--input-shape=" + text(input)));
        return args;
    }

    static String text(long[] dims) {
        return Arrays.stream(dims).mapToObj(Long::toString).collect(Collectors.joining(",", "[", "]"));
    }

    @Override
    public String toString() {
        return String.join(" ", shapeArgs());
    }

    /** A request of any dialect and mode with one input and a target (numpy: sometimes several inputs, no target). */
    static ZeroSizeRequest any(Random random) {
        return any(random, output(random));
    }

    /** As {@link #any(Random)}, with no 0 in the intended output: ranks 1 to 4, dims 1 to 4. */
    static ZeroSizeRequest nonEmpty(Random random) {
        long[] out = new long[1 + random.nextInt(4)];
        for (int i = 0; i < out.length; i++) {
            out[i] = 1 + random.nextInt(4);
        }
        return any(random, out);
    }

    private static ZeroSizeRequest any(Random random, long[] out) {
        String dialect = DIALECTS[random.nextInt(DIALECTS.length)];
        return switch (dialect) {
            case "numpy", "pytorch", "paddle" ->
                random.nextInt(6) == 0 ? joint(random, dialect, out) : keeping(random, dialect, out);
            case "mindspore" -> keeping(random, dialect, out);
            case "onnx" -> twoWay(random, dialect, null, out);
            case "openvino" ->
                switch (MODES[random.nextInt(MODES.length)]) {
                    case "numpy" ->
                        new ZeroSizeRequest(dialect, "numpy", List.of(aligned(random, out)), out, null, null);
                    case "bidirectional" -> twoWay(random, dialect, "bidirectional", out);
                    case "explicit" -> explicit(random, out);
                    default -> pdpd(random, out);
                };
            default -> ngraph(random, out);
        };
    }

    /** Inputs broadcast against each other (numpy, pytorch, paddle), without a target: broadcast-tensors. */
    static ZeroSizeRequest joint(Random random) {
        return joint(random, DIALECTS[random.nextInt(3)], output(random));
    }

    private static ZeroSizeRequest joint(Random random, String dialect, long[] out) {
        List<long[]> inputs = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            inputs.add(aligned(random, out));
        }
        return new ZeroSizeRequest(dialect, null, inputs, null, null, null);
    }

    /** Ranks 0 to 6, dims 0 to 3; three in four hold a 0 at a random position. */
    private static long[] output(Random random) {
        long[] out = new long[random.nextInt(7)];
        for (int i = 0; i < out.length; i++) {
            out[i] = random.nextInt(4);
        }
        if (out.length > 0 && random.nextInt(4) != 0) {
            out[random.nextInt(out.length)] = 0;
        }
        return out;
    }

    /** A right-aligned input: each dim the output's or 1, and now and then any dim (often incompatible). */
    private static long[] aligned(Random random, long[] out) {
        long[] input = new long[random.nextInt(out.length + 1)];
        int off = out.length - input.length;
        for (int i = 0; i < input.length; i++) {
            input[i] = dim(random, out[off + i]);
        }
        return input;
    }

    private static long dim(Random random, long wanted) {
        int pick = random.nextInt(10);
        return pick < 6 ? wanted : pick < 9 ? 1 : random.nextInt(4);
    }

    /** expand / broadcast_to with -1 now and then: on kept dims, and rarely on a new leading dim. */
    private static ZeroSizeRequest keeping(Random random, String dialect, long[] out) {
        long[] input = aligned(random, out);
        long[] target = out.clone();
        int off = target.length - input.length;
        boolean minusOne = !dialect.equals("numpy");
        for (int i = 0; i < target.length; i++) {
            if (minusOne && random.nextInt(i < off ? 20 : 3) == 0) {
                target[i] = -1;
            }
        }
        if (dialect.equals("paddle") && random.nextInt(10) == 0) {
            target = new long[0];
        }
        return new ZeroSizeRequest(dialect, null, List.of(input), target, null, null);
    }

    /** ONNX Expand and OpenVINO bidirectional: a 1 in the target keeps the input's dim; the target may be shorter. */
    private static ZeroSizeRequest twoWay(Random random, String dialect, String mode, long[] out) {
        long[] input = aligned(random, out);
        long[] target = out.clone();
        int off = target.length - input.length;
        for (int i = off; i < target.length; i++) {
            if (random.nextInt(3) == 0) {
                target[i] = 1;
            }
        }
        if (random.nextInt(4) == 0) {
            target = Arrays.copyOfRange(target, random.nextInt(target.length + 1), target.length);
        }
        return new ZeroSizeRequest(dialect, mode, List.of(input), target, null, null);
    }

    /** OpenVINO explicit: the input's axes at increasing output axes; a scalar sometimes maps to one. */
    private static ZeroSizeRequest explicit(Random random, long[] out) {
        List<Long> chosen = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            if (random.nextBoolean()) {
                chosen.add((long) i);
            }
        }
        long[] axes = chosen.stream().mapToLong(Long::longValue).toArray();
        long[] input = new long[axes.length];
        for (int i = 0; i < axes.length; i++) {
            input[i] = dim(random, out[(int) axes[i]]);
        }
        if (axes.length == 0 && out.length > 0 && random.nextBoolean()) {
            axes = new long[] {random.nextInt(out.length)};
        }
        return new ZeroSizeRequest("openvino", "explicit", List.of(input), out, axes, null);
    }

    /** OpenVINO pdpd: aligned at a start axis (or -1, the default), a 1 in the target taking the input's dim. */
    private static ZeroSizeRequest pdpd(Random random, long[] out) {
        int rank = random.nextInt(out.length + 1);
        int start = random.nextBoolean() ? out.length - rank : random.nextInt(out.length - rank + 1);
        Long axis = random.nextInt(3) == 0 ? null : random.nextInt(3) == 0 ? -1L : (long) start;
        if (axis == null || axis == -1) {
            start = out.length - rank;
        }
        long[] input = new long[rank];
        long[] target = out.clone();
        for (int i = 0; i < rank; i++) {
            input[i] = dim(random, out[start + i]);
            if (input[i] == out[start + i] && random.nextInt(4) == 0) {
                target[start + i] = 1;
            }
        }
        return new ZeroSizeRequest("openvino", "pdpd", List.of(input), target, null, axis);
    }

    /** nGraph: the input is the target without the broadcast axes; now and then one dim is off. */
    private static ZeroSizeRequest ngraph(Random random, long[] out) {
        List<Long> axes = new ArrayList<>();
        List<Long> kept = new ArrayList<>();
        for (int i = 0; i < out.length; i++) {
            if (random.nextInt(3) == 0) {
                axes.add((long) i);
            } else {
                kept.add(out[i]);
            }
        }
        long[] input = kept.stream().mapToLong(Long::longValue).toArray();
        if (input.length > 0 && random.nextInt(8) == 0) {
            input[random.nextInt(input.length)] = random.nextInt(4);
        }
        return new ZeroSizeRequest(
                "ngraph",
                null,
                List.of(input),
                out,
                axes.stream().mapToLong(Long::longValue).toArray(),
                null);
    }
}
