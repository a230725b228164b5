package dev.tensorbroadcast.job.cli;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The levels of the command line's log4j configuration ({@code log4j2-quiet.properties}), read from that file, so that a
 * run without log4j ({@link QuietLogProvider}) lets through exactly the lines log4j would: the root's level, and each
 * named logger's for its name and the names below it. A level is an SLF4J level's number: a line is written when its
 * level's number is at least the threshold ({@link #OFF} lets none through, as log4j's {@code off} and, for SLF4J's
 * levels, {@code fatal}).
 */
record QuietLogLevels(int root, Map<String, Integer> loggers) {
    static final int OFF = Integer.MAX_VALUE;
    /** The only layout {@link QuietLogger} writes: level, the logger's last name, the message; no stack trace. */
    static final String PATTERN = "%p %c{1}: %m%n";

    private static final Pattern SYSTEM_PROPERTY = Pattern.compile("\\$\\{sys:([^:}]+)(?::-([^}]*))?}");

    QuietLogLevels {
        loggers = Map.copyOf(requireNonNull(loggers, "loggers is null"));
    }

    /** The levels of the configuration at {@code url}, its {@code ${sys:name:-default}} resolved by {@code properties}. */
    static QuietLogLevels read(URL url, UnaryOperator<String> properties) {
        Properties config = new Properties();
        try (InputStream in = url.openStream()) {
            config.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the log configuration " + url + ": " + e.getMessage(), e);
        }
        return of(config, properties);
    }

    static QuietLogLevels of(Properties config, UnaryOperator<String> properties) {
        Map<String, Integer> loggers = new HashMap<>();
        for (String key : config.stringPropertyNames()) {
            if (key.startsWith("logger.") && key.endsWith(".name")) {
                String id = key.substring(0, key.length() - ".name".length());
                loggers.put(config.getProperty(key).trim(), level(config.getProperty(id + ".level"), properties));
            }
        }
        return new QuietLogLevels(level(config.getProperty("rootLogger.level"), properties), loggers);
    }

    /** The threshold of the logger {@code name}: that of the nearest configured name it is, or lies below. */
    int threshold(String name) {
        String at = name;
        while (true) {
            Integer level = loggers.get(at);
            if (level != null) {
                return level;
            }
            int dot = at.lastIndexOf('.');
            if (dot < 0) {
                return root;
            }
            at = at.substring(0, dot);
        }
    }

    private static int level(String value, UnaryOperator<String> properties) {
        if (value == null) {
            // log4j's default level of a logger configuration without one
            return 40;
        }
        Matcher matcher = SYSTEM_PROPERTY.matcher(value.trim());
        StringBuilder resolved = new StringBuilder();
        while (matcher.find()) {
            String set = properties.apply(matcher.group(1));
            String replacement = set != null ? set : matcher.group(2) == null ? "" : matcher.group(2);
            matcher.appendReplacement(resolved, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(resolved);
        return switch (resolved.toString().trim().toLowerCase(Locale.ROOT)) {
            case "all", "trace" -> 0;
            case "debug" -> 10;
            case "info" -> 20;
            case "warn" -> 30;
            case "error" -> 40;
            case "fatal", "off" -> OFF;
            default ->
                throw new IllegalArgumentException("Cannot read the log level '" + value
                        + "': expected off, fatal, error, warn, info, debug, trace" + " or all");
        };
    }
}
