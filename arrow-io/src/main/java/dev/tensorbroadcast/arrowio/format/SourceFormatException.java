package dev.tensorbroadcast.arrowio.format;

import dev.tensorbroadcast.planner.BroadcastException;

/**
 * A source file cannot be turned into a tensor: it is malformed, truncated, of an unsupported type, or larger than the
 * configured heap limit. The message is one line: {@code Cannot read <name>: <reason>}.
 */
public final class SourceFormatException extends BroadcastException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    public SourceFormatException(String name, String reason) {
        super("Cannot read " + name + ": " + reason);
        this.reason = reason;
    }

    public SourceFormatException(String name, String reason, Throwable cause) {
        this(name, reason);
        initCause(cause);
    }

    /** What is wrong with the file, without "Cannot read" and its name: for a report that names the file itself. */
    public String reason() {
        return reason;
    }

    @Override
    public String kind() {
        return "source_format";
    }
}
