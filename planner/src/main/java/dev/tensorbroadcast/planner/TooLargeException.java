package dev.tensorbroadcast.planner;

/** A count of elements, bytes, rows or partitions does not fit the limits: it would overflow a {@code long}. */
public final class TooLargeException extends BroadcastException {
    private static final long serialVersionUID = 1L;

    public TooLargeException(String message) {
        super(message);
    }

    @Override
    public String kind() {
        return "too_large";
    }
}
