package dev.tensorbroadcast.planner;

/**
 * Base of every error the planner reports. Its message is one line meant for the user (always one: outside text in
 * it is escaped, see {@link UserText}): it names the dialect, the shapes, the offending value and what would have been
 * accepted. A parameter it names is a {@link Param} mention, shown as a Java caller or the command line says it.
 */
public abstract class BroadcastException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected BroadcastException(String message) {
        // a message may quote outside text, a column name from a file say: it still takes one line
        super(UserText.oneLine(message));
    }

    /** The message in a Java caller's words: a parameter is its builder method, {@code maxOutputBytes}. */
    @Override
    public String getMessage() {
        return Param.apiText(super.getMessage());
    }

    /** The message as the command line prints it: a parameter is its flag, {@code --max-output}. */
    public String commandLineMessage() {
        return Param.commandLineText(super.getMessage());
    }

    /**
     * The message with its parameter mentions kept, for a message that quotes this one as its reason: the outer
     * message then shows them in its reader's words too.
     */
    public String mentionedMessage() {
        return super.getMessage();
    }

    /** A stable, machine-readable name of the error's kind, as printed in JSON by the CLI. */
    public abstract String kind();
}
