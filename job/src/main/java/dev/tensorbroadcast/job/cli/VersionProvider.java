package dev.tensorbroadcast.job.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The version from the jar manifest, or from the build's filtered resource when running from classes (tests). */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"tensor-broadcast " + version()};
    }

    static String version() {
        String manifest = TensorBroadcastCli.class.getPackage().getImplementationVersion();
        if (manifest != null) {
            return manifest;
        }
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
