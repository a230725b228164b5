package dev.tensorbroadcast.job.pipeline;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * The warnings one logger writes while this is open, as its owner's log would show them ("logger: message"); what
 * a user of the Java API sees of ours in their own log.
 */
final class LoggedWarnings implements AutoCloseable {
    private final String logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final LoggerConfig config;
    private final AbstractAppender appender;

    private LoggedWarnings(String logger) {
        this.logger = requireNonNull(logger, "logger is null");
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        this.config = context.getConfiguration().getLoggerConfig(logger);
        this.appender = new AbstractAppender("warnings of " + logger, null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                if (event.getLoggerName().equals(LoggedWarnings.this.logger)
                        && event.getLevel().isMoreSpecificThan(Level.WARN)) {
                    lines.add(event.getLoggerName() + ": " + event.getMessage().getFormattedMessage());
                }
            }
        };
        appender.start();
        config.addAppender(appender, Level.WARN, null);
        context.updateLoggers();
    }

    static LoggedWarnings of(String logger) {
        return new LoggedWarnings(logger);
    }

    List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        config.removeAppender(appender.getName());
        appender.stop();
        ((LoggerContext) LogManager.getContext(false)).updateLoggers();
    }
}
