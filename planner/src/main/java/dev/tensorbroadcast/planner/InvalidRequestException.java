package dev.tensorbroadcast.planner;

/** The request itself is malformed for its dialect: a bad value, a missing or forbidden argument, an axis out of range. */
public final class InvalidRequestException extends BroadcastException {
    private static final long serialVersionUID = 1L;

    public InvalidRequestException(String message) {
        super(message);
    }

    @Override
    public String kind() {
        return "invalid_request";
    }
}
