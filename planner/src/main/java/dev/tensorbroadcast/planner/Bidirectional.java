package dev.tensorbroadcast.planner;

/** Two-way broadcast of one input with a shape (ONNX {@code Expand}, OpenVINO bidirectional): numpy's rule on both. */
final class Bidirectional {
    private Bidirectional() {}

    static Shape broadcast(BroadcastRequest request, Shape input, Shape shape) {
        int rank = Math.max(input.rank(), shape.rank());
        long[] out = new long[rank];
        for (int axis = 0; axis < rank; axis++) {
            int inputAxis = axis - (rank - input.rank());
            int shapeAxis = axis - (rank - shape.rank());
            long in = inputAxis >= 0 ? input.dim(inputAxis) : 1;
            long wanted = shapeAxis >= 0 ? shape.dim(shapeAxis) : 1;
            if (in == wanted || wanted == 1) {
                out[axis] = in;
            } else if (in == 1) {
                out[axis] = wanted;
            } else {
                throw new IncompatibleShapesException(Rules.prefix(request, input, shape) + "output dim " + axis
                        + " is " + in + " in the input and " + wanted + " in the shape; one of them must be 1, or both"
                        + " equal (the shape needs " + in + " or 1 there)");
            }
        }
        return Shape.of(out);
    }
}
