package dev.tensorbroadcast.arrowio.source;

import dev.tensorbroadcast.planner.BroadcastException;

/**
 * A source file cannot be turned into a tensor: it is malformed, truncated, of an unsupported type, or larger than the
 * configured heap limit. The message is one line: {@code Cannot read <name>: <reason>}.
 */
public final class SourceFormatException extends BroadcastException {
    private static final long serialVersionUID = 1L;

    public SourceFormatException(String name, String reason) {
        super("Cannot read " + name + ": " + reason);
    }

    public SourceFormatException(String name, String reason, Throwable cause) {
        this(name, reason);
        initCause(cause);
    }

    @Override
    public String kind() {
        return "source_format";
    }
}
