package dev.tensorbroadcast.job.cli;

import java.net.URL;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * SLF4J's binding for a command line run that starts no Spark ({@link LoggingChoice}): Hadoop's, Parquet's, Arrow's and
 * Netty's lines at the levels of {@code log4j2-quiet.properties}, written as its console appender writes them, without
 * starting log4j-core, whose first configuration (its plugin scan of the class path's 220 jars) was about a third of
 * such a run's start (docs/benchmarks.md, issue 42). A run on Spark keeps log4j: Spark configures and calls it
 * directly.
 */
public final class QuietLogProvider implements SLF4JServiceProvider {
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();
    private volatile Factory factory;

    /** SLF4J makes the provider by reflection, from the name in {@code slf4j.provider}. */
    public QuietLogProvider() {}

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
        URL config = TensorBroadcastCli.class.getResource(TensorBroadcastCli.QUIET_CONFIG);
        factory = new Factory(QuietLogLevels.read(config, System::getProperty));
    }

    private static final class Factory implements ILoggerFactory {
        private final QuietLogLevels levels;
        private final ConcurrentMap<String, Logger> loggers = new ConcurrentHashMap<>();

        Factory(QuietLogLevels levels) {
            this.levels = levels;
        }

        @Override
        public Logger getLogger(String name) {
            return loggers.computeIfAbsent(name, key -> new QuietLogger(key, levels.threshold(key)));
        }
    }
}
