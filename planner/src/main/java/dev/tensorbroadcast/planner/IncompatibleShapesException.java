package dev.tensorbroadcast.planner;

/** The request is well formed, but the dialect's rules do not allow these shapes to broadcast to each other. */
public final class IncompatibleShapesException extends BroadcastException {
    private static final long serialVersionUID = 1L;

    public IncompatibleShapesException(String message) {
        super(message);
    }

    @Override
    public String kind() {
        return "incompatible_shapes";
    }
}
