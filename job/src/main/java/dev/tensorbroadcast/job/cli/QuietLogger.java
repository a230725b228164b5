package dev.tensorbroadcast.job.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.PrintStream;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Date;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/**
 * A logger of a run without log4j ({@link QuietLogProvider}): a line at or above its threshold goes to the stderr of
 * the moment as log4j's console appender of {@code log4j2-quiet.properties} writes it ({@link QuietLogLevels#PATTERN}:
 * the level, the logger's last name, the message formatted as log4j formats it, no stack trace), in UTF-8. A call
 * without arguments is written as it is, as log4j writes a message of its own.
 */
final class QuietLogger extends AbstractLogger {
    private static final long serialVersionUID = 1L;

    private final int threshold;
    private final String shortName;

    QuietLogger(String name, int threshold) {
        this.name = name;
        this.threshold = threshold;
        this.shortName = name.substring(name.lastIndexOf('.') + 1);
    }

    private boolean enabled(Level level) {
        return level.toInt() >= threshold;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
            Level level, Marker marker, String messagePattern, Object[] arguments, Throwable throwable) {
        // the fluent API reaches here without asking first
        if (!enabled(level)) {
            return;
        }
        String message = arguments == null
                ? messagePattern
                : MessageFormatter.basicArrayFormat(messagePattern, log4jArguments(arguments, throwable));
        byte[] line = (level + " " + shortName + ": " + message + System.lineSeparator()).getBytes(UTF_8);
        // the stream of the moment: a signal's handler swaps in a null stream to quiet a JVM on its way out
        PrintStream err = System.err;
        err.write(line, 0, line.length);
        err.flush();
    }

    /**
     * The arguments as log4j formats them: SLF4J takes a last {@link Throwable} argument out as the line's exception,
     * where log4j fills a placeholder left free with it (and prints no exception here either way); a {@link Date} in
     * ISO form at this zone, not as its {@code toString}.
     */
    private static Object[] log4jArguments(Object[] arguments, Throwable throwable) {
        Object[] all = Arrays.copyOf(arguments, arguments.length + (throwable == null ? 0 : 1));
        if (throwable != null) {
            all[arguments.length] = throwable;
        }
        for (int i = 0; i < all.length; i++) {
            if (all[i] instanceof Date date) {
                all[i] = Log4jDates.FORMAT.format(date.toInstant());
            }
        }
        return all;
    }

    /** Made at the first date logged: a run's start has no use for it. */
    private static final class Log4jDates {
        static final DateTimeFormatter FORMAT =
                DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ").withZone(ZoneId.systemDefault());
    }

    @Override
    public boolean isTraceEnabled() {
        return enabled(Level.TRACE);
    }

    @Override
    public boolean isTraceEnabled(Marker marker) {
        return enabled(Level.TRACE);
    }

    @Override
    public boolean isDebugEnabled() {
        return enabled(Level.DEBUG);
    }

    @Override
    public boolean isDebugEnabled(Marker marker) {
        return enabled(Level.DEBUG);
    }

    @Override
    public boolean isInfoEnabled() {
        return enabled(Level.INFO);
    }

    @Override
    public boolean isInfoEnabled(Marker marker) {
        return enabled(Level.INFO);
    }

    @Override
    public boolean isWarnEnabled() {
        return enabled(Level.WARN);
    }

    @Override
    public boolean isWarnEnabled(Marker marker) {
        return enabled(Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
        return enabled(Level.ERROR);
    }

    @Override
    public boolean isErrorEnabled(Marker marker) {
        return enabled(Level.ERROR);
    }
}
